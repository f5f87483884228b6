import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// The remote cache's patch of a cached pack, killed midway (SIGKILL: nothing is tidied) and run
/// again by a new process: the journal the first kept (`partial/patch-HASH.part.patch` and its
/// `.json`) is found again, and the entries' bytes it names are not asked for again.
extension PackPatchNginxTests {
    @Test func aPatchKilledMidwayResumesInTheNextProcess() async throws {
        let (old, new) = try await bakeTwice(side: 192)  // entries of 144 KiB: the journal is saved every 256 KiB
        let oldBytes = try Array(Data(contentsOf: URL(fileURLWithPath: old)))
        let index = { (bytes: [UInt8]) in try bytes.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) } }
        let diff = BakedPackDiff(old: try index(oldBytes), new: try index(new))
        // Every answer goes out 64 KiB every half second: the kill lands while the entries arrive.
        let url = fixture.url("slow/level1.bake?chunk=65536&pause=0.5")
        let cache = fixture.cacheFolder.path
        try fixture.serve("level1.bake", oldBytes)
        let first = try await PreloadChild(["fetch", url, "--cache", cache]).finished()
        try #require(first.status == 0, "\(first.output)\(first.errors)")
        try fixture.serve("level1.bake", new)

        let journal = try #require(try fixture.cache().patchPath(for: url)) + ".patch.json"
        struct Saved: Decodable { var received: [[UInt64]] }
        @Sendable func kept() -> UInt64 {
            guard let data = FileManager.default.contents(atPath: journal), let saved = try? JSONDecoder().decode(Saved.self, from: data) else {
                return 0
            }
            return saved.received.reduce(0) { $0 + $1[1] - $1[0] }
        }
        let child = try PreloadChild(["fetch", url, "--cache", cache])
        // The event: the journal names bytes received (a generous bound, never a short one).
        let saved = try await offThePool { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(300)
            while ContinuousClock.now < deadline && child.process.isRunning {
                if kept() > 0 { return true }
                usleep(20_000)
            }
            return false
        }
        try #require(saved, "the journal never named bytes received")
        kill(child.process.processIdentifier, SIGKILL)
        let killed = await child.finished()
        #expect(killed.status == 128 + SIGKILL, "\(killed.output)\(killed.errors)")
        let resumed = kept()
        #expect(resumed > 0 && resumed < diff.requestedBytes, "\(resumed) of \(diff.requestedBytes) kept")
        // The killed request is listed once the server notices the closed connection.
        let listed = try await offThePool { [fixture] () -> Int? in
            let deadline = ContinuousClock.now + .seconds(300)
            while ContinuousClock.now < deadline {
                if let stats = try? fixture.stats(), stats.contains(where: { $0.cut }) { return stats.count }
                usleep(20_000)
            }
            return nil
        }
        let before = try #require(listed, "the server never listed the killed request")

        let again = try await PreloadChild(["fetch", url, "--cache", cache]).finished()
        #expect(again.status == 0 && again.output.contains("  patched   \(url) ("), "\(again.output)\(again.errors)")
        let entry = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: try fixture.cache().blobPath(entry)).map(Array.init) == new)
        // The new process asked for the header, the index and the entries' bytes the journal did not hold: nothing twice.
        let pack = try fixture.stats().dropFirst(before).filter { !$0.path.contains(".deltas") }  // (none published: a 404)
        let served = pack.reduce(0) { $0 + UInt64($1.payload) }
        #expect(served == diff.outlineBytes + diff.requestedBytes - resumed, "served \(served), kept \(resumed), patch \(diff.requestedBytes)")
        #expect(!FileManager.default.fileExists(atPath: journal))
        print("a patch killed midway: the next process resumed \(resumed) bytes, served \(served) (the header, the index and the rest)")
    }
}
