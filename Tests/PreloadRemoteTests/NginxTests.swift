import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// Against Debian's nginx (its own ETags, ranges and 304s): `.ci/system-packages install remote`
/// installs it; CI runs these after installing it.
@Suite(.enabled(if: NginxServer.isInstalled, "nginx is not installed (.ci/system-packages install remote)"))
struct NginxTests {
    let fixture: RemoteFixture
    let nginx: NginxServer

    init() async throws {
        fixture = try await RemoteFixture.make()
        nginx = try await offThePool { try SharedServers.nginx() }  // the run's, serving the fixture's folder below its root
    }

    /// The shared nginx's URL of the fixture's folder.
    var base: String { nginx.baseURL.absoluteString + "/" + fixture.folderName + "/" }

    func url(_ path: String) -> String { base + path }

    @Test func aFileDownloadsAndRevalidatesWithoutABody() async throws {
        let bytes = RemoteFixture.bytes(5_000_000, seed: 11)
        try fixture.serve("levels/level1.bake", bytes)
        let first = try await only(try fixture.fetcher().fetch([RemoteFile(url: url("levels/level1.bake"))]))
        #expect(FileManager.default.contents(atPath: first.path).map(Array.init) == bytes)
        #expect(first.transfer.networkBytes == 5_000_000)
        let second = try await only(try fixture.fetcher().fetch([RemoteFile(url: url("levels/level1.bake"))]))
        #expect(second.transfer.networkBytes == 0 && second.transfer.cacheBytes == 5_000_000 && second.transfer.attempts == 1)
    }

    @Test func withoutAnETagTheDateRevalidates() async throws {
        try fixture.serve("dated.bin", RemoteFixture.bytes(50_000, seed: 13))
        let root = fixture.served.path
        let dated = try await offThePool { try NginxServer.start(root: root, serverDirectives: "etag off;") }
        defer { dated.stop() }
        let url = dated.baseURL.absoluteString + "/dated.bin"
        let first = try await only(try fixture.fetcher().fetch([RemoteFile(url: url)]))
        #expect(first.transfer.networkBytes == 50_000)
        let second = try await only(try fixture.fetcher().fetch([RemoteFile(url: url)]))
        #expect(second.transfer.networkBytes == 0 && second.transfer.cacheBytes == 50_000 && second.transfer.attempts == 1)
    }

    @Test func aCutDownloadResumesWithARange() async throws {
        let bytes = RemoteFixture.bytes(3_000_000, seed: 12)
        try fixture.serve("big.bin", bytes)
        // nginx's ETag, as a first transfer would have kept it (fetched into another cache).
        let probe = try TemporaryDirectory("preload-remote-probe")
        defer { probe.remove() }
        let probeFetcher = RemoteFetcher(cache: try RemoteCache(folder: probe.path))
        _ = try await only(probeFetcher.fetch([RemoteFile(url: url("big.bin"))]))
        let etag = try #require(try probeFetcher.cache.entry(for: url("big.bin"))?.etag)
        let cache = try fixture.cache()
        let (name, path) = cache.newPartialPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(1_000_000))))
        cache.keepPartial(url: url("big.bin"), name: name, validators: ResumeValidators(etag: etag), sha256: nil, totalSize: 3_000_000)
        let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: url("big.bin"))]))
        #expect(FileManager.default.contents(atPath: fetched.path).map(Array.init) == bytes)
        #expect(fetched.transfer.networkBytes == 2_000_000 && fetched.transfer.cacheBytes == 1_000_000)
    }

    /// nginx without ETags (`etag off;`, as some setups have): the kept bytes resume against its
    /// Last-Modified, which it compares with `If-Range` (issue 48).
    @Test func withoutAnETagACutDownloadResumesAgainstTheDate() async throws {
        let bytes = RemoteFixture.bytes(3_000_000, seed: 14)
        try fixture.serve("dated-big.bin", bytes)
        try fixture.age("dated-big.bin")
        let root = fixture.served.path
        let dated = try await offThePool { try NginxServer.start(root: root, serverDirectives: "etag off;") }
        defer { dated.stop() }
        let url = dated.baseURL.absoluteString + "/dated-big.bin"
        // nginx's Last-Modified, as a first transfer would have kept it (fetched into another cache).
        let probe = try TemporaryDirectory("preload-remote-probe")
        defer { probe.remove() }
        let probeFetcher = RemoteFetcher(cache: try RemoteCache(folder: probe.path))
        _ = try await only(probeFetcher.fetch([RemoteFile(url: url)]))
        let entry = try #require(try probeFetcher.cache.entry(for: url))
        #expect(entry.etag == nil)
        let modified = try #require(entry.lastModified)
        let now = DateFormatter()
        now.locale = Locale(identifier: "en_US_POSIX")
        now.timeZone = TimeZone(identifier: "GMT")
        now.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let cache = try fixture.cache()
        let (name, path) = cache.newPartialPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(1_000_000))))
        let validators = ResumeValidators(lastModified: modified, date: now.string(from: Date()))
        #expect(validators.ifRange == modified)
        cache.keepPartial(url: url, name: name, validators: validators, sha256: nil, totalSize: 3_000_000)
        let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: url)]))
        #expect(FileManager.default.contents(atPath: fetched.path).map(Array.init) == bytes)
        #expect(fetched.transfer.resumedAt == 1_000_000 && fetched.transfer.networkBytes == 2_000_000, "\(fetched.transfer)")
    }

    @Test func anUnchangedCatalogResyncsWithNoBodyAndAChangeMovesOneFile() async throws {
        for level in 1...3 {
            for index in 0..<4 { try fixture.serve("level\(level)/tile\(index).bin", RemoteFixture.bytes(100_000, seed: UInt64(level * 10 + index))) }
        }
        let catalog = try RemoteCatalog.make(folder: fixture.served.path, base: base)
        #expect(catalog.groups == ["level1", "level2", "level3"])
        let fetcher = try fixture.fetcher()
        let first = await fetcher.update(catalog, groups: ["level3"])
        #expect(first.count == 4 && first.allSatisfy { (try? $0.get().transfer.networkBytes) == 100_000 })
        let again = await fetcher.update(catalog, groups: ["level3"])
        #expect(again.allSatisfy { (try? $0.get().transfer)?.networkBytes == 0 && (try? $0.get().transfer)?.attempts == 0 })
        // One file changes on the server; the new catalog moves it alone.
        try fixture.serve("level3/tile2.bin", RemoteFixture.bytes(100_000, seed: 99))
        let changed = try RemoteCatalog.make(folder: fixture.served.path, base: base)
        let update = await fetcher.update(changed, groups: ["level3"])
        let moved = update.compactMap { try? $0.get() }.filter { $0.transfer.networkBytes > 0 }
        #expect(moved.count == 1 && moved.first?.transfer.url == changed.url(of: changed.files(groups: ["level3"])[2]))
    }

    @Test func aCertificateNobodyVouchesForIsRefused() async throws {
        try fixture.serve("secret.bin", [1, 2, 3])
        let keys = try TemporaryDirectory("preload-remote-tls")
        defer { keys.remove() }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", keys.file("key.pem"), "-out", keys.file("cert.pem"),
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        let status = try await offThePool {
            try openssl.run()
            openssl.waitUntilExit()
            return openssl.terminationStatus
        }
        try #require(status == 0)
        let port = try LoopbackHTTP.freePort()
        let (root, certificate, key) = (fixture.served.path, keys.file("cert.pem"), keys.file("key.pem"))
        let tls = try await offThePool {
            try NginxServer.start(
                root: root,
                serverDirectives: """
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(key);
                    """)
        }
        defer { tls.stop() }
        let results = try await fixture.fetcher(attempts: 3).fetch([RemoteFile(url: "https://127.0.0.1:\(port)/secret.bin")])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "a self-signed certificate was trusted") }
        #expect(error.category == .download && error.description.contains("self-signed certificate"), "\(error)")
        #expect(error.description.contains("after 1 attempt"), "TLS failures are final: \(error)")
        #expect(try fixture.cache().statistics.files == 0)
    }
}
