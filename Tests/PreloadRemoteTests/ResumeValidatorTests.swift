import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// Resuming against servers that give no ETag, a weak one, or nothing at all (issue 48): the
/// validator `If-Range` carries (a strong ETag, else a strong `Last-Modified`, never a weak ETag),
/// `Range` alone when the SHA-256 is promised, and a clean start over otherwise; each checked by
/// what the fault server saw.
@Suite struct ResumeValidatorTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    /// Serves `bytes` as `name`, modified `age` seconds ago; returns that time and the promise.
    @discardableResult
    func serve(_ name: String, _ bytes: [UInt8], age: Double = 3600) throws -> (modified: Int64, promise: ExpectedContents) {
        let promise = try fixture.serve(name, bytes)
        return (try fixture.age(name, by: age), promise)
    }

    /// Fetches `url` with one request allowed: the server cuts it, and the download gives up,
    /// keeping its bytes if it can.
    func cutOnce(_ url: String, expected: ExpectedContents = ExpectedContents()) async throws {
        let cut = try await fixture.fetcher(attempts: 1, maxRequests: 1).fetch([RemoteFile(url: url, expected: expected)])
        #expect(throws: AssetError.self) { try cut[0].get() }
    }

    @Test func theValidatorIsAStrongETagElseAStrongLastModified() {
        let date = "Sun, 29 Nov 2026 04:00:00 GMT", earlier = "Sun, 29 Nov 2026 03:00:00 GMT"
        #expect(ResumeValidators.seconds(date) == 1_795_924_800)
        #expect(ResumeValidators(etag: "\"a\"", lastModified: earlier, date: date).ifRange == "\"a\"")
        #expect(ResumeValidators(etag: "W/\"a\"", lastModified: earlier, date: date).ifRange == earlier)
        #expect(ResumeValidators(etag: "W/\"a\"").ifRange == nil)
        #expect(ResumeValidators(lastModified: earlier, date: date).ifRange == earlier)
        // Not a second older than the response's Date, or no Date: a file changed within that
        // second could keep it.
        #expect(ResumeValidators(lastModified: date, date: date).ifRange == nil)
        #expect(ResumeValidators(lastModified: earlier).ifRange == nil)
        #expect(ResumeValidators(lastModified: "yesterday", date: date).ifRange == nil)
    }

    @Test func withOnlyLastModifiedACutResumesAgainstTheDate() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 41)
        let (modified, _) = try serve("dated.bin", bytes)
        let fetched = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("drop/dated.bin?etag=none&lastmod=1&after=100000&times=1"))]))
        #expect(bytesOnDisk(fetched) == bytes)
        #expect(fetched.transfer.resumedAt == 100_000 && fetched.transfer.restart == nil)
        let seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 206], "\(seen)")
        #expect(seen.last?.range == "bytes=100000-" && seen.last?.ifRange.flatMap(ResumeValidators.seconds) == modified, "\(seen)")
    }

    /// The case: a download stopped (here: out of attempts; Ctrl-C keeps it the same way)
    /// and run again goes on from its bytes with the date; once the file changed, it starts over.
    @Test func aKeptPartialResumesAgainstTheDateAndAChangedFileStartsOver() async throws {
        let first = RemoteFixture.bytes(400_000, seed: 42)
        let (modified, _) = try serve("kept.bin", first, age: 7200)
        let url = fixture.url("drop/kept.bin?etag=none&lastmod=1&after=100000&times=1")
        try await cutOnce(url)
        #expect(try fixture.cache().statistics.partials == 1)
        let resumed = try await only(try fixture.fetcher().fetch([RemoteFile(url: url)]))
        #expect(bytesOnDisk(resumed) == first)
        #expect(resumed.transfer.resumedAt == 100_000 && resumed.transfer.networkBytes == 300_000 && resumed.transfer.cacheBytes == 100_000)
        var seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 206] && seen[1].ifRange.flatMap(ResumeValidators.seconds) == modified, "\(seen)")

        // Cut again (another URL: its own count of cuts), then the file changes on the server.
        let changing = fixture.url("drop/kept.bin?etag=none&lastmod=1&after=100000&times=1&again=1")
        try await cutOnce(changing)
        let second = RemoteFixture.bytes(400_000, seed: 43)
        let (newer, _) = try serve("kept.bin", second, age: 3600)
        let restarted = try await only(try fixture.fetcher().fetch([RemoteFile(url: changing)]))
        #expect(bytesOnDisk(restarted) == second)
        #expect(restarted.transfer.restart == .changed && restarted.transfer.resumedAt == nil)
        seen = try fixture.stats().filter { $0.path.contains("again=1") }
        #expect(seen.map(\.status) == [200, 200] && seen[1].ifRange.flatMap(ResumeValidators.seconds) == modified, "\(seen)")
        #expect(seen[1].bytes == 400_000 && modified != newer)
        #expect(try fixture.cacheContents().partials.isEmpty)
    }

    @Test func aWeakETagIsNeverSentInIfRange() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 44)
        let (modified, _) = try serve("weak.bin", bytes)
        // With Last-Modified: the date.
        let dated = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("drop/weak.bin?etag=weak&lastmod=1&after=100000&times=1"))]))
        #expect(bytesOnDisk(dated) == bytes && dated.transfer.resumedAt == 100_000)
        var seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 206] && seen[1].ifRange.flatMap(ResumeValidators.seconds) == modified, "\(seen)")
        // Alone: nothing to resume against (no promise), so it starts over and says why.
        let weak = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("drop/weak.bin?etag=weak&after=100000&times=1"))]))
        #expect(bytesOnDisk(weak) == bytes)
        #expect(weak.transfer.restart == .noValidator && weak.transfer.resumedAt == nil)
        seen = try fixture.stats().filter { !$0.path.contains("lastmod") }
        #expect(seen.count == 2 && seen[1].range == nil && seen[1].ifRange == nil && seen[1].status == 200, "\(seen)")
    }

    @Test func withNoValidatorAPromisedHashResumesWithARangeAlone() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 45)
        let (_, promise) = try serve("bare.bin", bytes)
        let url = fixture.url("drop/bare.bin?etag=none&after=100000&times=1")
        try await cutOnce(url, expected: promise)
        let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: url, expected: promise)]))
        #expect(bytesOnDisk(fetched) == bytes && fetched.transfer.resumedAt == 100_000 && fetched.transfer.restart == nil)
        let seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 206] && seen[1].range == "bytes=100000-" && seen[1].ifRange == nil, "\(seen)")
    }

    @Test func withNoValidatorAndNoPromiseItStartsOverAndSaysWhy() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 46)
        // Neither validator; then a Last-Modified newer than the response's Date, which is none.
        try serve("bare.bin", bytes, age: -86400)
        for route in ["drop/bare.bin?etag=none&after=100000&times=1", "drop/bare.bin?etag=none&lastmod=1&after=100000&times=1"] {
            let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: fixture.url(route))]))
            #expect(bytesOnDisk(fetched) == bytes, "\(route)")
            #expect(fetched.transfer.restart == .noValidator && fetched.transfer.resumedAt == nil, "\(route)")
            let seen = try fixture.stats().filter { $0.path.hasSuffix(route.dropFirst("drop/bare.bin".count)) }
            #expect(seen.count == 2 && seen[1].range == nil && seen[1].status == 200 && seen[1].bytes == 400_000, "\(route): \(seen)")
        }
        #expect(try fixture.cacheContents().partials.isEmpty)
    }

    /// Bytes kept from another version of the file under the same promise (a server with no
    /// validator changed it between): the resumed whole fails its SHA-256, so it is dropped and
    /// fetched again from byte 0, once; never delivered mixed.
    @Test func aResumedFileThatFailsItsHashIsFetchedAgainWhole() async throws {
        let old = RemoteFixture.bytes(400_000, seed: 47), new = RemoteFixture.bytes(400_000, seed: 48)
        let promise = try fixture.serve("moved.bin", new)
        try serve("moved.bin", old)
        let url = fixture.url("drop/moved.bin?etag=none&after=100000&times=1")
        try await cutOnce(url, expected: promise)
        #expect(try fixture.cache().statistics.partials == 1)
        try serve("moved.bin", new)
        let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: url, expected: promise)]))
        #expect(bytesOnDisk(fetched) == new)
        #expect(fetched.transfer.restart == .resumedMismatch && fetched.transfer.attempts == 2)
        let seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 206, 200] && seen[1].range == "bytes=100000-" && seen[2].range == nil, "\(seen)")
        #expect(try fixture.cacheContents().partials.isEmpty)
        // A server whose bytes never match: fetched again once, then the mismatch fails by name.
        let liar = fixture.url("wrong/moved.bin?etag=none")
        let cache = try fixture.cache()
        let (name, path) = cache.newPartialPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(new.prefix(100_000))))
        cache.keepPartial(url: liar, name: name, validators: ResumeValidators(), sha256: promise.sha256, totalSize: 400_000)
        let results = try await fixture.fetcher().fetch([RemoteFile(url: liar, expected: promise)])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "a file that never matches was delivered") }
        #expect(try fixture.stats().filter { $0.path.contains("wrong/") }.map(\.status) == [206, 200])
        #expect(error.category == .corrupt && error.description.contains("SHA-256"), "\(error)")
    }
}
