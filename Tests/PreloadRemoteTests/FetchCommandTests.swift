import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

#if canImport(Glibc)
    import Glibc
#endif

/// `preload fetch` as a person runs it: a URL that is not a catalog, a transfer cut and resumed,
/// a server that ignores ranges, and Ctrl-C in the middle of a download.
@Suite struct FetchCommandTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    @Test func aURLThatIsNotACatalogFetchesThatFile() async throws {
        let bytes = RemoteFixture.bytes(200_000, seed: 31)
        try fixture.serve("level.bake", bytes)
        let url = fixture.url("plain/level.bake")
        let run = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("Fetched 1 file") && run.output.contains("  new       \(url) (200.0 KB)"), "\(run.output)")
        let cached = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: fixture.cacheFolder.path + "/blobs/" + cached.sha256 + ".bake").map(Array.init) == bytes)
        // JSON that is not a catalog is a file too; --group needs a catalog.
        try fixture.serve("data.json", Array(#"{"format": "something-else"}"#.utf8))
        let json = try await PreloadChild(["fetch", fixture.url("plain/data.json"), "--cache", fixture.cacheFolder.path]).finished()
        #expect(json.status == 0 && json.output.contains("  new       "), "\(json.output)\(json.errors)")
        let grouped = try await PreloadChild(["fetch", url, "--group", "g", "--cache", fixture.cacheFolder.path]).finished()
        #expect(grouped.status != 0 && grouped.errors.contains("--group needs a catalog"), "\(grouped.errors)")
    }

    /// A transfer cut twice and resumed, and one whose server ignores ranges: each line says so.
    @Test(arguments: [
        ("drop/cut.bin?after=100000&times=2", "  resumed   ", "resumed at 100.0 KB (byte 100000); 2 retries)"),
        ("drop/cut.bin?after=100000&times=1&ranges=0", "  restarted ", "restarted: the server ignores ranges; 1 retry)"),
    ])
    func aTransfersLineSaysHowItWent(route: String, what: String, how: String) async throws {
        try fixture.serve("cut.bin", RemoteFixture.bytes(500_000, seed: 32))
        let url = fixture.url(route)
        let run = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(what + url + " (") && run.output.contains(how), "\(run.output)")
    }

    @Test func ctrlCKeepsWhatArrivedAndTheNextRunResumes() async throws {
        let size = 3_000_000
        let bytes = RemoteFixture.bytes(size, seed: 34)
        try fixture.serve("slow.bin", bytes)
        // 32 KB every 50 ms: about 5 s for the file, time to interrupt it midway.
        let url = fixture.url("slow/slow.bin?chunk=32768&pause=0.05")
        let partials = fixture.cacheFolder.path + "/partial"
        let child = try PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path])
        // Waits for bytes to arrive (the event: the partial file grows), with a generous bound.
        let arrived = try await offThePool { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(300)
            while ContinuousClock.now < deadline && child.process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
                let sizes = names.compactMap { try? FileManager.default.attributesOfItem(atPath: partials + "/" + $0)[.size] as? Int }
                if sizes.contains(where: { $0 >= 200_000 }) { return true }
                usleep(20_000)
            }
            return false
        }
        try #require(arrived, "no bytes arrived")
        kill(child.process.processIdentifier, SIGINT)
        let stopped = await child.finished()
        #expect(stopped.status == 130, "\(stopped.output)\(stopped.errors)")
        #expect(stopped.errors.contains("interrupted: what arrived is kept in the cache"), "\(stopped.errors)")
        let statistics = try fixture.cache().statistics
        #expect(statistics.partials == 1 && statistics.files == 0)
        // The next run asks for the rest only.
        let again = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(again.status == 0, "\(again.output)\(again.errors)")
        #expect(again.output.contains("  resumed   \(url) (") && again.output.contains("resumed at "), "\(again.output)")
        let seen = try fixture.stats()
        let resumed = try #require(seen.last)
        #expect(resumed.status == 206 && resumed.range?.hasPrefix("bytes=") == true && resumed.range != "bytes=0-", "\(seen)")
        #expect(seen.reduce(0) { $0 + $1.bytes } <= size + 65_536, "sent \(seen.map(\.bytes)) for \(size)")
        let cached = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: fixture.cacheFolder.path + "/blobs/" + cached.sha256 + ".bin").map(Array.init) == bytes)
    }
}
