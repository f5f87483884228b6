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
        // The first response sends 1 MB, then nothing for 60 s: the download is midway whatever
        // the machine's load (the command's stall timeout is 15 s). Later responses are whole.
        let url = fixture.url("stall/slow.bin?after=1000000&seconds=60&times=1")
        let partials = fixture.cacheFolder.path + "/partial"
        let child = try PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path])
        // Waits for the megabyte to arrive (the event: the partial file holds it), with a generous bound.
        let arrived = try await offThePool { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(300)
            while ContinuousClock.now < deadline && child.process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: partials)) ?? []
                let sizes = names.compactMap { try? FileManager.default.attributesOfItem(atPath: partials + "/" + $0)[.size] as? Int }
                if sizes.contains(1_000_000) { return true }
                usleep(20_000)
            }
            return false
        }
        try #require(arrived, "the first megabyte did not arrive")
        kill(child.process.processIdentifier, SIGINT)
        let stopped = await child.finished()
        #expect(stopped.status == 130 && child.process.terminationReason == .exit, "\(stopped.output)\(stopped.errors)")
        #expect(stopped.errors.contains("interrupted: what arrived is kept in the cache"), "\(stopped.errors)")
        #expect(stopped.output.contains("cancelled while downloading"), "\(stopped.output)")
        let statistics = try fixture.cache().statistics
        #expect(statistics.partials == 1 && statistics.files == 0, "\(statistics)")
        // The next run asks for the rest only.
        let again = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(again.status == 0, "\(again.output)\(again.errors)")
        #expect(again.output.contains("  resumed   \(url) (2.0 MB; resumed at 1.0 MB (byte 1000000))"), "\(again.output)")
        let seen = try fixture.stats().filter { $0.range != nil }  // (the stalled request is listed once its stall ends)
        #expect(seen.map(\.status) == [206] && seen.first?.range == "bytes=1000000-" && seen.first?.bytes == 2_000_000, "\(seen)")
        let cached = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: fixture.cacheFolder.path + "/blobs/" + cached.sha256 + ".bin").map(Array.init) == bytes)
    }
}
