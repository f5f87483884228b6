// How fast fresh memory is first touched, with and without transparent huge pages: maps 256 MB
// three times, touches one byte per 4 KiB page, prints GB/s. On a virtual machine the first touch
// of a fresh huge page can be a host fault (much slower than later ones); see docs/benchmarks.md.
//   cc -O2 -o /tmp/fresh_memory Benchmarks/Scripts/fresh_memory.c && /tmp/fresh_memory huge && /tmp/fresh_memory small
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    const size_t size = (size_t)256 << 20, huge = (size_t)2 << 20;
    int wantsHuge = argc > 1 && strcmp(argv[1], "huge") == 0;
    for (int round = 0; round < 3; round++) {
        char *mapping = mmap(NULL, size + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) { perror("mmap"); return 1; }
        char *start = (char *)(((size_t)mapping + huge - 1) & ~(huge - 1));
        if (wantsHuge) madvise(start, size, MADV_HUGEPAGE);
        double begin = now();
        for (size_t offset = 0; offset < size; offset += 4096) start[offset] = 1;
        double seconds = now() - begin;
        printf("%s pages, round %d: %.1f ms for 256 MB, %.2f GB/s\n", wantsHuge ? "huge" : "4 KiB", round, seconds * 1e3, 0.256 / seconds);
        munmap(mapping, size + huge);
    }
    return 0;
}
