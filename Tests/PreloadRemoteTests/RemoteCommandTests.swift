import Foundation
import Preload
import PreloadTestSupport
import Testing

/// The command with remote files: `preload URL --cache`, `preload catalog`, `preload fetch`,
/// against the fault server.
@Suite struct RemoteCommandTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    /// What `preload ARGUMENTS` printed and how it ended (run on a thread of its own, not the
    /// test's: the command may take a while to fetch).
    func preload(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await PreloadChild(arguments).finished()
    }

    @Test func aRemotePNGLoadsThroughTheCacheAndSaysWhatMoved() async throws {
        try fixture.serve("hero.png", PNGFixture.rgba(width: 2, height: 2, pixels: Array(0..<16)))
        let url = fixture.url("plain/hero.png")
        let first = try await preload([url, "--cache", fixture.cacheFolder.path, "--json"])
        #expect(first.status == 0, "\(first.errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        let asset = try #require((document["assets"] as? [[String: Any]])?.first)
        #expect(asset["width"] as? Int == 2 && asset["path"] as? String == url)
        let transfer = try #require(asset["transfer"] as? [String: Any])
        #expect(transfer["networkBytes"] as? Int ?? 0 > 0 && transfer["cacheBytes"] as? Int == 0)
        let second = try await preload([url, "--cache", fixture.cacheFolder.path])
        #expect(second.status == 0)
        #expect(second.output.contains("fetched:   1 file: 0 B from the network, "), "\(second.output)")
        let ftp = try await preload(["ftp://127.0.0.1/hero.png"])
        #expect(ftp.status != 0 && ftp.errors.contains("only http:// and https:// URLs are fetched"), "\(ftp.errors)")
        let notCatalog = try fixture.served.write("not-a-catalog.json", text: #"{"files": []}"#)
        let wrong = try await preload(["fetch", notCatalog, "--cache", fixture.cacheFolder.path])
        #expect(wrong.status != 0 && wrong.errors.contains("is not a catalog: it has no 'format'"), "\(wrong.errors)")  // a local file
        let missing = try await preload([fixture.url("plain/missing.png"), "--cache", fixture.cacheFolder.path])
        #expect(missing.status == 1 && missing.output.contains("missing.png: the server answered HTTP 404"), "\(missing.output)")
    }

    @Test func aCatalogIsWrittenAndItsGroupBroughtUpToDate() async throws {
        let published = try TemporaryDirectory("preload-remote-published")
        defer { published.remove() }
        for (path, seed) in [("level1/a.bin", 1), ("level1/b.bin", 2), ("level2/c.bin", 3), ("top.bin", 4)] {
            let bytes = RemoteFixture.bytes(20_000, seed: UInt64(seed))
            try published.write(path, bytes)
            try fixture.serve(path, bytes)
        }
        try published.write(".hidden", [1])
        let catalog = fixture.served.file("catalog.json")
        let wrote = try await preload(["catalog", published.path, "--url", fixture.url("plain/"), "-o", catalog])
        #expect(wrote.status == 0 && wrote.output.contains("4 files (80.0 KB) in 2 groups"), "\(wrote.output)\(wrote.errors)")
        let fetched = try await preload(["fetch", fixture.url("plain/catalog.json"), "--group", "level1", "--cache", fixture.cacheFolder.path])
        #expect(fetched.status == 0, "\(fetched.errors)")
        #expect(fetched.output.contains("Fetched 2 files (group level1)") && fetched.output.contains("  new       level1/a.bin (20.0 KB)"))
        let again = try await preload(["fetch", catalog, "--group", "level1", "--cache", fixture.cacheFolder.path])
        #expect(again.output.contains(": 0 B from the network") && again.output.contains("  unchanged level1/b.bin"), "\(again.output)")
        let unknown = try await preload(["fetch", catalog, "--group", "level9", "--cache", fixture.cacheFolder.path])
        #expect(unknown.status != 0 && unknown.errors.contains("no group 'level9'"))
        // A file on the server that no longer matches the catalog fails by name, and is not cached.
        try fixture.serve("level2/c.bin", RemoteFixture.bytes(20_000, seed: 99))
        let changed = try await preload(["fetch", catalog, "--group", "level2", "--cache", fixture.cacheFolder.path])
        #expect(changed.status == 1 && changed.output.contains("FAIL      level2/c.bin: downloaded bytes do not match"), "\(changed.output)")
        #expect(changed.output.hasPrefix("FAILED 1 of 1 file; fetched 0 (group level2)"), "\(changed.output)")
        // The catalog written into the folder it lists does not list itself.
        let inside = try await preload(["catalog", published.path, "--url", fixture.url("plain/"), "-o", published.file("catalog.json")])
        let again2 = try await preload(["catalog", published.path, "--url", fixture.url("plain/"), "-o", published.file("catalog.json")])
        #expect(inside.status == 0 && again2.output.contains("4 files"), "\(again2.output)")
    }
}

/// A run of the built `preload` command as a child process: started at once, its output read
/// on a thread of its own while it runs.
final class PreloadChild: Sendable {
    let process: Process
    private let output = Pipe(), errors = Pipe()

    init(_ arguments: [String]) throws {
        let directory = Bundle.main.bundleURL  // the tests' executable's folder (or bundle), beside `preload`
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("preload") }
        let binary: URL = try #require(candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }))
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        (process.standardOutput, process.standardError) = (output, errors)
        try FaultServer.launch(process)  // SIGINT and SIGTERM unblocked in the child
    }

    /// Its exit status (128 + the signal's number when a signal ended it), and what it printed.
    func finished() async -> (status: Int32, output: String, errors: String) {
        let (process, output, errors) = (process, output, errors)
        let (printed, complained) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let read = (output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
                process.waitUntilExit()
                continuation.resume(returning: read)
            }
        }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }
}
