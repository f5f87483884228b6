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

    /// A transfer cut twice and resumed, one whose server ignores ranges, one whose server gives
    /// only a weak ETag and a Last-Modified (resumed against the date), and one whose server gives
    /// no validator (started over): each line says so.
    @Test(arguments: [
        ("drop/cut.bin?after=100000&times=2", "  resumed   ", "resumed at 100.0 KB (byte 100000); 2 retries)"),
        ("drop/cut.bin?after=100000&times=1&ranges=0", "  restarted ", "restarted: the server ignores ranges; 1 retry)"),
        ("drop/cut.bin?after=100000&times=1&etag=weak&lastmod=1", "  resumed   ", "resumed at 100.0 KB (byte 100000); 1 retry)"),
        ("drop/cut.bin?after=100000&times=1&etag=none", "  restarted ", "restarted: the server gives no validator to resume against; 1 retry)"),
    ])
    func aTransfersLineSaysHowItWent(route: String, what: String, how: String) async throws {
        try fixture.serve("cut.bin", RemoteFixture.bytes(500_000, seed: 32))
        try fixture.age("cut.bin")
        let url = fixture.url(route)
        let run = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(what + url + " (") && run.output.contains(how), "\(run.output)")
    }

    /// `--stall-timeout`: a transfer that stalls after 100 KB for up to 300 s is cut after the
    /// 1 s given and resumed; a server that stalls every answer before its first byte fails the
    /// file after its attempts, each cut after 1 s, and the line says so; 0 is refused by name.
    @Test func aStalledTransferIsCutAfterTheStallTimeoutGiven() async throws {
        try fixture.serve("stalled.bin", RemoteFixture.bytes(500_000, seed: 35))
        try fixture.age("stalled.bin")
        let url = fixture.url("stall/stalled.bin?after=100000&seconds=300&times=1")
        let run = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path, "--stall-timeout", "1"]).finished()
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("  resumed   \(url) (") && run.output.contains("resumed at 100.0 KB (byte 100000); 1 retry)"), "\(run.output)")
        let silent = fixture.url("stall/stalled.bin?after=0&seconds=300&times=100")
        let failed = try await PreloadChild(["fetch", silent, "--cache", fixture.cacheFolder.path, "--stall-timeout", "1"]).finished()
        #expect(failed.status == 1 && failed.output.contains("  FAIL      \(silent): "), "\(failed.output)")
        #expect(failed.output.contains("no bytes for 1.0 seconds"), "the stall named as the cause: \(failed.output)")
        let refused = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path, "--stall-timeout", "0"]).finished()
        #expect(refused.status == 64 && refused.errors.contains("--stall-timeout must be more than 0"), "\(refused.errors)")
    }

    /// With a strong ETag, and (issue 48) with only a Last-Modified, as many servers give.
    @Test(arguments: ["", "&etag=none&lastmod=1"])
    func ctrlCKeepsWhatArrivedAndTheNextRunResumes(validators: String) async throws {
        let size = 3_000_000
        let bytes = RemoteFixture.bytes(size, seed: 34)
        try fixture.serve("slow.bin", bytes)
        try fixture.age("slow.bin")
        // The first response sends 1 MB, then nothing for 300 s (the server hangs up early only
        // when it stops), and the command waits 600 s before it cuts a stalled transfer: the
        // download stays midway, at 1 MB, however late a busy machine lets the test look (with
        // the default 15 s, a run beside a loaded machine saw the retry finish it first). Later
        // responses are whole.
        let url = fixture.url("stall/slow.bin?after=1000000&seconds=300&times=1" + validators)
        let partials = fixture.cacheFolder.path + "/partial"
        let child = try PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path, "--stall-timeout", "600"])
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
