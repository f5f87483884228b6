// pack-patch-bench OLD.bake NEW.bake WORK_DIR [--rounds N]: what applying the patch from OLD to
// NEW costs (BakedPackPatch: the unchanged entries' CRC-32 checked and copied from OLD by the
// kernel, the changed ones checked and copied from the file of fetched bytes as PackUpdater keeps
// it, the whole written beside, fsynced and renamed) against `cp OLD` on the same disk, and `cp OLD`
// then `sync` of the copy (as durable as the patch), all into WORK_DIR; the median of N rounds each,
// interleaved, and the ratios; then the same patch from fetched bytes in memory.
// The changed entries are read from NEW before the clock starts: they stand for the bytes fetched
// (WORK_DIR/fetched.patch, a sparse file of the new pack's length, and in memory).
// Each timed run starts with no dirty pages (`sync`, untimed).
// PRELOAD_NO_COPY_FILE_RANGE=1 copies through a buffer instead of copy_file_range(2).
import Foundation
import Preload
import PreloadBaked

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    print("usage: pack-patch-bench OLD.bake NEW.bake WORK_DIR [--rounds N]")
    exit(2)
}
let (old, new, work) = (arguments[1], arguments[2], arguments[3])
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 7

let published = try FileMapping(path: new)
let (header, index) = published.withUnsafeBytes { file in
    let indexOffset = Int(UInt64(littleEndian: file.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
    return (Array(file[0..<BakedFormat.headerSize]), Array(file[indexOffset...]))
}
let newIndex = try header.withUnsafeBytes { head in
    try index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
}
let oldIndex = try FileMapping(path: old).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
let diff = BakedPackDiff(old: oldIndex, new: newIndex)
let fetched = published.withUnsafeBytes { file in
    diff.requests.map { BakedPackPatch.Fetched(range: $0, bytes: Array(file[Int($0.lowerBound)..<Int($0.upperBound)])) }
}
let journal = work + "/fetched.patch"
let journalFile = open(journal, O_RDWR | O_CREAT | O_TRUNC, 0o644)
ftruncate(journalFile, off_t(diff.packLength))
for piece in fetched { _ = piece.bytes.withUnsafeBytes { pwrite(journalFile, $0.baseAddress, $0.count, off_t(piece.range.lowerBound)) } }
fsync(journalFile)
close(journalFile)
print(
    "pack \(diff.packLength) bytes, \(diff.pieces.count) entries: \(diff.fetched.count) fetched (\(diff.fetchedEntryBytes) bytes),",
    "\(diff.reused.count) copied from the old pack")

/// The time `body` takes, from a clean start: every dirty page on disk first (`sync`, untimed), so
/// that no run pays for the writeback of the one before (a `cp` leaves 134 MB dirty).
func seconds(_ body: () throws -> Void) rethrows -> Double {
    sync()
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start) / .seconds(1)
}
/// `cp OLD WORK/copied.bake`, and with `durable` its data flushed to disk after (`sync FILE`,
/// an fsync, as the patch's commit does before its rename).
func copy(durable: Bool) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "cp \"$0\" \"$1\"" + (durable ? " && sync \"$1\"" : ""), old, work + "/copied.bake"]
    try process.run()
    process.waitUntilExit()
}
var patchTimes: [Double] = [], memoryTimes: [Double] = [], copyTimes: [Double] = [], durableTimes: [Double] = []
for _ in 0..<rounds {
    unlink(work + "/patched.bake")
    unlink(work + "/copied.bake")
    patchTimes.append(
        try seconds { try BakedPackPatch.apply(diff, header: header, index: index, old: old, fetchedFile: journal, to: work + "/patched.bake") })
    unlink(work + "/patched-memory.bake")
    memoryTimes.append(
        try seconds { try BakedPackPatch.apply(diff, header: header, index: index, old: old, fetched: fetched, to: work + "/patched-memory.bake") })
    copyTimes.append(try seconds { try copy(durable: false) })
    unlink(work + "/copied.bake")
    durableTimes.append(try seconds { try copy(durable: true) })
}
guard FileManager.default.contentsEqual(atPath: work + "/patched.bake", andPath: new),
    FileManager.default.contentsEqual(atPath: work + "/patched-memory.bake", andPath: new)
else {
    print("the patched pack differs from NEW")
    exit(1)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let (patch, memory, plain, durable) = (median(patchTimes), median(memoryTimes), median(copyTimes), median(durableTimes))
print(
    String(
        format: "patch (fsynced) %.3f s, from memory %.3f s, cp %.3f s, cp + sync %.3f s (medians of %d, interleaved)", patch, memory, plain, durable,
        rounds))
print(String(format: "patch / cp = %.2fx; patch / (cp + sync) = %.2fx", patch / plain, patch / durable))
print(String(format: "from memory: / cp = %.2fx; / (cp + sync) = %.2fx", memory / plain, memory / durable))
