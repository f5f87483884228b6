#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

import Preload

/// The SHA-256 state and byte count of what `descriptor` reads from where it is to its end, in
/// 1 MiB blocks: a catalog's files, and a kept partial download before it resumes (its hash goes
/// on with the bytes that follow). `nil` if a read fails (`errno` says why).
func digest(ofTheRestOf descriptor: Int32) -> (hasher: SHA256, size: Int64)? {
    var hasher = SHA256()
    var size: Int64 = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
        let count = read(descriptor, buffer.baseAddress!, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return nil }
        if count == 0 { return (hasher, size) }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        size += Int64(count)
    }
}
