import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// The game's updater (`PackUpdater`) over nginx and the fault server: check, apply, roll back,
/// and a patch cut five times that resumes from what it kept.
extension PackPatchNginxTests {
    @Test func theUpdaterChecksAppliesAndRollsBack() async throws {
        let (old, new) = try await bakeTwice()
        let oldBytes = try Array(Data(contentsOf: URL(fileURLWithPath: old)))
        try fixture.serve("levels/level1.bake", new)
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let updater = PackUpdater(fetcher: try fixture.fetcher())

        // A check of a copy whose check refuses the new pack: the old one is back.
        let copy = work.file("copy.bake")
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        let refused = try await updater.check(url, installed: copy)
        await #expect(throws: PackUpdateError.self) {
            try await updater.apply(refused) { _ in throw BakedPackError.notABakedPack }
        }
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: copy))) == oldBytes)

        let update = try await updater.check(url, installed: old)
        let diff = try #require(update.diff)
        #expect(update.kind == .patch && update.bytesToMove == diff.requestedBytes && update.checkedBytes == diff.outlineBytes)
        #expect(update.bytesSaved == diff.packLength - diff.outlineBytes - diff.requestedBytes && update.bytesSaved > 0)
        let told = PreloadMutex<UInt64>(0)
        let done = try await updater.apply(
            update,
            verify: { path in _ = try FileMapping(path: path).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) } },
            progress: { bytes in told.withLock { $0 += bytes } })
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == new)
        // Progress counts the bytes that move (the entries' ranges), not the pack's size.
        #expect(told.withLock { $0 } == update.bytesToMove && update.bytesToMove < diff.packLength / 2, "\(told.withLock { $0 }) bytes told")
        // The changed entries in one multipart request: bytes within 1.05x of the entries and the index.
        let moved = Double(diff.outlineBytes + done.networkBytes), least = Double(diff.outlineBytes + diff.fetchedEntryBytes)
        #expect(diff.requests.count > 1 && done.requests == 1 && done.networkBytes >= diff.requestedBytes && moved <= 1.05 * least)
        #expect(done.resumedBytes == 0 && !done.wasWhole)
        print(
            "PackUpdater over nginx: \(diff.requests.count) ranges in \(done.requests) request(s),",
            "\(Int(moved)) bytes moved for \(Int(least)) bytes of changed entries and index (\(String(format: "%.3f", moved / least))x)")
        #expect(done.previous == old + ".previous" && !FileManager.default.fileExists(atPath: old + ".patch"))
        #expect(try await updater.check(url, installed: old).kind == .upToDate)

        try PackUpdater.rollBack(old)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == oldBytes)
        #expect(throws: PackUpdateError.self) { try PackUpdater.rollBack(old) }
    }

    /// The fault server cuts the first seven requests after 5,000 bytes (the header and the index, smaller, come whole; five entry requests, each asking
    /// for every range still missing in one multipart request, are cut); the fetcher allows one request
    /// an apply, so each cut ends the apply, and the next one goes on from the bytes kept beside
    /// the pack. The bytes sent for the entries add up to the patch's once: nothing fetched twice.
    @Test func aPatchCutFiveTimesResumesWithoutFetchingAnythingTwice() async throws {
        let (old, new) = try await bakeTwice(side: 128)  // entries of 64 KiB: the first range takes the five cuts
        try fixture.serve("level1.bake", new)
        let url = fixture.url("drop/level1.bake?after=5000&times=7")
        let updater = PackUpdater(fetcher: try fixture.fetcher(attempts: 1, maxRequests: 1))
        var update: PackUpdate?
        for _ in 0..<10 where update == nil { update = try? await updater.check(url, installed: old) }
        let checked = try #require(update)
        let diff = try #require(checked.diff)
        let checkRequests = try fixture.stats().count
        var failures = 0
        var done: PackUpdateResult?
        var errors: [String] = []
        for _ in 0..<40 where done == nil {
            do { done = try await updater.apply(checked) } catch {
                failures += 1
                errors.append("\(error)")
            }
        }
        let result = try #require(done, "40 applies failed: \(Set(errors).sorted())")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == new)
        let applied = try fixture.stats().dropFirst(checkRequests)
        let sent = applied.reduce(0) { $0 + $1.payload }  // the entries' bytes; the multipart answers' part headers left out
        let cuts = applied.filter(\.cut).count
        #expect(cuts == 5 && failures == cuts, "\(cuts) cuts, \(failures) applies failed")
        #expect(diff.requests.count > 1 && applied.first?.range?.contains(",") == true, "several ranges a request")
        #expect(UInt64(sent) == diff.requestedBytes && result.resumedBytes > 0 && result.networkBytes <= applied.last.map { UInt64($0.bytes) } ?? 0)
        print(
            "PackUpdater resume: \(cuts) cuts in \(applied.count) requests; entry bytes sent \(sent) for a patch of \(diff.requestedBytes)",
            "(\(String(format: "%.3f", Double(sent) / Double(diff.requestedBytes)))x); the last apply resumed \(result.resumedBytes) bytes")
    }

    /// The remote cache holds an older version of a pack: `preload fetch` patches it and its line
    /// says what moved, from where, and what it saved; a fetcher's transfer says it was patched,
    /// and moved the new index and the changed entries only.
    @Test func aCachedOlderPackIsPatchedNotDownloadedWhole() async throws {
        let (old, new) = try await bakeTwice()
        let oldBytes = try Array(Data(contentsOf: URL(fileURLWithPath: old)))
        try fixture.serve("levels/level1.bake", oldBytes)
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let first = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(first.status == 0 && first.output.contains("  new       \(url) ("), "\(first.output)\(first.errors)")
        try fixture.serve("levels/level1.bake", new)
        let second = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(second.status == 0 && second.output.contains("  patched   \(url) ("), "\(second.output)\(second.errors)")
        #expect(second.output.contains("from the cached version \(try SHA256.hash(data: oldBytes).hexString.prefix(12))"), "\(second.output)")
        print("preload fetch of a changed pack:", second.output)
        let entry = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: try fixture.cache().blobPath(entry)).map(Array.init) == new)

        // Back to the old version, through the library: the transfer moved the index and the changed entries
        // (their ranges in one multipart answer: its part headers too, within 1.05x).
        try fixture.serve("levels/level1.bake", oldBytes)
        let index = { (bytes: [UInt8]) in try bytes.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) } }
        let diff = BakedPackDiff(old: try index(new), new: try index(oldBytes))
        let bar = PreloadMutex<(expected: Int64, received: Int64)>((0, 0))
        let session = SourceSession { expected, received in
            bar.withLock { ($0.expected, $0.received) = ($0.expected + expected, $0.received + received) }
        }
        let fetched = try await fixture.fetcher().fetch([RemoteFile(url: url)], session: session)[0].get()
        let moved = fetched.transfer.networkBytes
        // The session's bar counted what moved (the check's header and index, then the entries), not the pack's size.
        let (expected, received) = bar.withLock { ($0.expected, $0.received) }
        #expect(expected == received && expected == Int64(diff.outlineBytes + diff.requestedBytes), "bar \(expected)/\(received)")
        #expect(expected < Int64(oldBytes.count), "bar \(expected) of a \(oldBytes.count)-byte pack")
        #expect(fetched.transfer.patchedFrom == entry.sha256 && moved >= Int64(diff.bytesToMove))
        #expect(Double(moved) <= 1.05 * Double(diff.outlineBytes + diff.fetchedEntryBytes), "\(moved) bytes moved")
        #expect(fetched.transfer.cacheBytes == Int64(diff.reused.reduce(0) { $0 + $1.target.count }))
        #expect(FileManager.default.contents(atPath: fetched.path).map(Array.init) == oldBytes)
    }

    /// A server that ignores `Range` answers the cache's check with the whole pack: that answer is
    /// the download (the pack moves once), and the transfer is not a patch.
    @Test func aServerThatIgnoresRangeMovesACachedPacksNewVersionOnce() async throws {
        let (old, new) = try await bakeTwice()
        try fixture.serve("level1.bake", try Array(Data(contentsOf: URL(fileURLWithPath: old))))
        let plain = try await offThePool { [root = fixture.served.path] in try NginxServer.start(root: root, serverDirectives: "max_ranges 0;") }
        defer { plain.stop() }
        let url = plain.baseURL.absoluteString + "/level1.bake"
        _ = try await fixture.fetcher().fetch([RemoteFile(url: url)])[0].get()
        try fixture.serve("level1.bake", new)
        let fetched = try await fixture.fetcher().fetch([RemoteFile(url: url)])[0].get()
        #expect(fetched.transfer.patchedFrom == nil && fetched.transfer.networkBytes == Int64(new.count), "\(fetched.transfer)")
        #expect(FileManager.default.contents(atPath: fetched.path).map(Array.init) == new)
    }
}
