import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// The cache on its own: bounded by least recent use, tidy after an interrupted process, its
/// index kept across openings.
@Suite struct RemoteCacheTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    func fetch(_ fetcher: RemoteFetcher, _ name: String) async throws -> FetchedFile {
        try await only(fetcher.fetch([RemoteFile(url: fixture.url("plain/\(name)"))]))
    }

    @Test func pastItsLimitTheLeastRecentlyUsedFilesGo() async throws {
        for index in 0..<4 { try fixture.serve("f\(index).bin", RemoteFixture.bytes(100_000, seed: UInt64(index + 20))) }
        let fetcher = try fixture.fetcher(limit: 250_000)
        _ = try await fetch(fetcher, "f0.bin")
        _ = try await fetch(fetcher, "f1.bin")
        _ = try await fetch(fetcher, "f0.bin")  // used again: f1 is now the least recently used
        _ = try await fetch(fetcher, "f2.bin")
        let statistics = fetcher.cache.statistics
        #expect(statistics.files == 2 && statistics.bytes == 200_000)
        #expect(try fetcher.cache.entry(for: fixture.url("plain/f1.bin")) == nil)
        #expect(try fetcher.cache.entry(for: fixture.url("plain/f0.bin")) != nil)
        #expect(try fixture.cacheContents().blobs.count == 2)
    }

    @Test func twoURLsWithTheSameBytesShareOneFile() async throws {
        let bytes = RemoteFixture.bytes(10_000, seed: 30)
        try fixture.serve("a.bin", bytes)
        try fixture.serve("b.bin", bytes)
        let fetcher = try fixture.fetcher()
        let a = try await fetch(fetcher, "a.bin"), b = try await fetch(fetcher, "b.bin")
        #expect(a.path == b.path)
        #expect(fetcher.cache.statistics.urls == 2 && fetcher.cache.statistics.files == 1)
        try fetcher.cache.remove(url: fixture.url("plain/a.bin"))
        #expect(FileManager.default.fileExists(atPath: b.path))  // b still names it
        try fetcher.cache.remove(url: fixture.url("plain/b.bin"))
        #expect(!FileManager.default.fileExists(atPath: b.path))
    }

    @Test func openingTidiesWhatAnInterruptedProcessLeft() async throws {
        try fixture.serve("kept.bin", RemoteFixture.bytes(5_000, seed: 31))
        let kept = try await fetch(try fixture.fetcher(), "kept.bin")
        let folder = fixture.cacheFolder.path
        // A blob no entry names, an old temporary file no entry names, a half-written index.
        #expect(FileManager.default.createFile(atPath: folder + "/blobs/" + String(repeating: "a", count: 64) + ".png", contents: Data([1])))
        let stale = folder + "/partial/0000.part"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data([1])))
        let fresh = folder + "/partial/1111.part"  // another process's download in flight (it holds the lock): left alone
        #expect(FileManager.default.createFile(atPath: fresh, contents: Data([1])))
        let inFlight = open(fresh, O_RDWR)
        defer { close(inFlight) }
        #expect(flock(inFlight, LOCK_EX) == 0)
        #expect(FileManager.default.createFile(atPath: folder + "/index.json.1234.tmp", contents: Data("{".utf8)))
        let reopened = try fixture.cache()
        let contents = try fixture.cacheContents()
        #expect(contents.blobs == [URL(fileURLWithPath: kept.path).lastPathComponent])
        #expect(contents.partials == ["1111.part"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/index.json.1234.tmp"))
        #expect(try reopened.entry(for: fixture.url("plain/kept.bin")) != nil)
        // A blob deleted behind the cache's back is forgotten, and fetched again.
        try FileManager.default.removeItem(atPath: kept.path)
        let again = try await fetch(try fixture.fetcher(), "kept.bin")
        #expect(again.transfer.networkBytes == 5_000 && FileManager.default.fileExists(atPath: again.path))
    }

    @Test func copiesKeepTheURLsExtensionAndNothingElseOfIt() {
        #expect(RemoteCache.suffix(of: "https://x.test/a/hero.PNG?v=3#frag") == ".png")
        #expect(RemoteCache.suffix(of: "https://x.test/a/level") == "")
        #expect(RemoteCache.suffix(of: "https://x.test/a/../../etc/passwd") == "")
        #expect(RemoteCache.suffix(of: "https://x.test/a/x.p/ng") == "")
        #expect(RemoteCache.suffix(of: "https://x.test/a/evil.png%2F..%2F") == "")
        #expect(RemoteCache.suffix(of: "https://x.test/.hidden") == "")
    }
}

/// A damaged or hand-edited index names nothing outside the cache's folders.
@Suite struct RemoteCacheIndexTests {
    @Test func namesThatWouldLeaveTheCacheAreDropped() async throws {
        let folder = try TemporaryDirectory("preload-remote-index")
        defer { folder.remove() }
        let victim = try folder.write("victim.txt", text: "keep me")
        let good = String(repeating: "ab", count: 32)
        let json = """
            {"version": 1, "partials": {"u3": {"file": "../../victim.txt", "etag": "x", "lastUsed": 0}},
             "entries": {"u1": {"sha256": "../../victim.txt", "size": 1, "suffix": "", "lastUsed": 0},
                         "u2": {"sha256": "\(good)", "size": 1, "suffix": "/../x", "lastUsed": 0},
                         "u4": {"sha256": "\(good)", "size": 1, "suffix": ".png", "lastUsed": 0}}}
            """
        let cacheFolder = folder.path + "/cache"
        try FileManager.default.createDirectory(atPath: cacheFolder + "/blobs", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: cacheFolder + "/index.json", contents: Data(json.utf8)))
        #expect(FileManager.default.createFile(atPath: cacheFolder + "/blobs/\(good).png", contents: Data([1])))
        let cache = try RemoteCache(folder: cacheFolder, limit: 0)  // a limit of 0 would evict everything it knows
        try cache.remove(url: "u1")
        try cache.remove(url: "u3")
        #expect(cache.statistics.urls == 1)
        #expect(FileManager.default.fileExists(atPath: victim))
    }
}
