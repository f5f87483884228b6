import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// Downloads against the fault server: cuts, stalls, errors, lies, redirects; each checked by
/// the bytes that reach the cache and by what the server saw.
@Suite struct DownloadFaultTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    @Test func plainDownloadIsCachedAndRevalidatedWithoutABody() async throws {
        let bytes = RemoteFixture.bytes(300_000)
        try fixture.serve("art.bin", bytes)
        let fetcher = try fixture.fetcher()
        let first = try await only(fetcher.fetch([RemoteFile(url: fixture.url("plain/art.bin"))]))
        #expect(bytesOnDisk(first) == bytes)
        #expect(first.path.hasSuffix(".bin"))
        #expect(first.transfer.networkBytes == 300_000 && first.transfer.cacheBytes == 0 && first.transfer.attempts == 1)
        let second = try await only(fetcher.fetch([RemoteFile(url: fixture.url("plain/art.bin"))]))
        #expect(second.path == first.path)
        #expect(second.transfer.networkBytes == 0 && second.transfer.cacheBytes == 300_000)
        let seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 304])
        #expect(seen[1].ifNoneMatch != nil && seen[1].bytes == 0)
    }

    @Test func aPromisedHashTheCacheHoldsCostsNoRequest() async throws {
        let promise = try fixture.serve("level.bin", RemoteFixture.bytes(50_000))
        let file = RemoteFile(url: fixture.url("plain/level.bin"), expected: promise)
        _ = try await only(try fixture.fetcher().fetch([file]))
        let again = try await only(try fixture.fetcher().fetch([file]))
        #expect(again.transfer.networkBytes == 0 && again.transfer.attempts == 0)
        #expect(try fixture.stats().count == 1)
    }

    @Test func cutFiveTimesMidwayItResumesWithRanges() async throws {
        let size = 1_000_000
        let bytes = RemoteFixture.bytes(size, seed: 2)
        let promise = try fixture.serve("pack.bin", bytes)
        let fetcher = try fixture.fetcher(attempts: 6)
        let fetched = try await only(
            fetcher.fetch([RemoteFile(url: fixture.url("drop/pack.bin?after=150000&times=5"), expected: promise)]))
        #expect(bytesOnDisk(fetched) == bytes)
        let seen = try fixture.stats()
        #expect(seen.count == 6)
        #expect(seen.filter(\.cut).count == 5)
        #expect(seen.dropFirst().allSatisfy { $0.range != nil && $0.ifRange != nil })
        let sent = seen.reduce(0) { $0 + $1.bytes }
        #expect(Double(sent) <= 1.1 * Double(size), "sent \(sent) bytes for \(size)")
        #expect(fetched.transfer.networkBytes == Int64(sent))
        #expect(try fixture.cacheContents().partials.isEmpty)
    }

    @Test func aStalledTransferIsCutAndResumed() async throws {
        let bytes = RemoteFixture.bytes(200_000, seed: 3)
        try fixture.serve("slow.bin", bytes)
        let fetched = try await only(
            try fixture.fetcher(stall: .seconds(1)).fetch(
                [RemoteFile(url: fixture.url("stall/slow.bin?after=50000&seconds=30&times=1"))]))
        #expect(bytesOnDisk(fetched) == bytes)
        let seen = try fixture.stats()
        // (The stalled request is still stalling: the server lists a request once it ends.)
        #expect(seen.contains { $0.range == "bytes=50000-" }, "\(seen)")
    }

    @Test func serverErrorsAreRetriedThenTheFileLoads() async throws {
        let bytes = RemoteFixture.bytes(10_000, seed: 4)
        try fixture.serve("flaky.bin", bytes)
        let fetched = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("flaky/flaky.bin?fail=2&status=500"))]))
        #expect(bytesOnDisk(fetched) == bytes && fetched.transfer.attempts == 3)
        let throttled = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("flaky/flaky.bin?fail=1&status=429"))]))
        #expect(throttled.transfer.attempts == 2)
    }

    @Test func aFinalStatusFailsAtOnceByName() async throws {
        try fixture.serve("secret.bin", [1, 2, 3])
        for status in [404, 403] {
            let url = fixture.url("flaky/secret.bin?fail=9&status=\(status)")
            let results = try await fixture.fetcher().fetch([RemoteFile(url: url)])
            guard case .failure(let error) = results[0] else {
                Issue.record("HTTP \(status) loaded")
                continue
            }
            #expect(error.path == url && error.category == .download)
            #expect(error.underlying as? RemoteFetchError == .status(status, attempts: 1))
            #expect(error.description.contains("HTTP \(status)"))
        }
        #expect(try fixture.stats().count == 2)
    }

    @Test func retryableStatusesGiveUpAfterTheirAttempts() async throws {
        try fixture.serve("down.bin", [1, 2, 3])
        let results = try await fixture.fetcher(attempts: 3).fetch(
            [RemoteFile(url: fixture.url("flaky/down.bin?fail=9&status=503"))])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false)) }
        #expect(error.underlying as? RemoteFetchError == .status(503, attempts: 3))
        #expect(try fixture.stats().count == 3)
    }

    @Test func wrongBytesNeverReachTheCache() async throws {
        let promise = try fixture.serve("lie.bin", RemoteFixture.bytes(100_000, seed: 5))
        let results = try await fixture.fetcher().fetch([RemoteFile(url: fixture.url("wrong/lie.bin"), expected: promise)])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "wrong bytes loaded") }
        #expect(error.category == .corrupt && error.description.contains("SHA-256"))
        let contents = try fixture.cacheContents()
        #expect(contents.blobs.isEmpty && contents.partials.isEmpty)
        #expect(try fixture.cache().statistics.urls == 0)
    }

    @Test func moreThanThePromisedSizeIsCutOff() async throws {
        let promise = try fixture.serve("long.bin", RemoteFixture.bytes(100_000, seed: 6))
        let results = try await fixture.fetcher().fetch(
            [RemoteFile(url: fixture.url("toomany/long.bin?extra=5000000"), expected: promise)])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "a long body loaded") }
        #expect(error.underlying as? RemoteFetchError == .tooLong(expected: 100_000))
        #expect(try fixture.cacheContents().blobs.isEmpty)
        #expect(try fixture.stats().count == 1)  // not retried
    }

    @Test func aServerThatIgnoresRangesStartsOverCleanly() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 7)
        let promise = try fixture.serve("norange.bin", bytes)
        // Cut once (a partial kept), then fetched from a route that ignores Range.
        let cut = try await fixture.fetcher(attempts: 1, maxRequests: 1).fetch(
            [RemoteFile(url: fixture.url("drop/norange.bin?after=100000&times=1"), expected: promise)])
        #expect(throws: AssetError.self) { try cut[0].get() }
        #expect(try fixture.cacheContents().partials.count == 1)
        // The partial belongs to the drop URL; the same URL now answers 200 without honouring Range.
        let fetched = try await only(
            try fixture.fetcher().fetch(
                [RemoteFile(url: fixture.url("drop/norange.bin?after=100000&times=1"), expected: promise)]))
        #expect(bytesOnDisk(fetched) == bytes)
        let ignoring = try await only(
            try fixture.fetcher().fetch([RemoteFile(url: fixture.url("norange/norange.bin"), expected: promise)]))
        #expect(bytesOnDisk(ignoring) == bytes)
        #expect(try fixture.cacheContents().partials.isEmpty)
    }

    @Test func aFileThatChangedUnderAResumeIsFetchedWhole() async throws {
        let bytes = RemoteFixture.bytes(300_000, seed: 8)
        try fixture.serve("moving.bin", bytes)
        let url = fixture.url("changed/moving.bin")
        // A partial download with a stale ETag, as a cut transfer leaves it.
        let cache = try fixture.cache()
        let (name, path) = cache.newPartialPath()
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(1000))))
        cache.keepPartial(url: url, name: name, etag: "\"old\"", totalSize: 300_000)
        let fetched = try await only(try fixture.fetcher().fetch([RemoteFile(url: url)]))
        #expect(bytesOnDisk(fetched) == bytes)
        let seen = try fixture.stats()
        #expect(seen.count == 1 && seen[0].ifRange == "\"old\"" && seen[0].status == 200)
    }

    @Test func redirectsAreFollowedWithinTheLimitAndOnlyToHTTP() async throws {
        let bytes = RemoteFixture.bytes(1000, seed: 9)
        try fixture.serve("far.bin", bytes)
        let near = try await only(try fixture.fetcher(redirects: 3).fetch([RemoteFile(url: fixture.url("chain/3/far.bin"))]))
        #expect(bytesOnDisk(near) == bytes)
        let tooFar = try await fixture.fetcher(redirects: 3).fetch([RemoteFile(url: fixture.url("chain/4/far.bin"))])
        guard case .failure(let error) = tooFar[0] else { return #expect(Bool(false)) }
        #expect(error.description.contains("more than 3 redirects"))
        for target in ["file:///etc/passwd", "ftp://127.0.0.1/far.bin"] {
            let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let results = try await fixture.fetcher().fetch(
                [RemoteFile(url: fixture.url("redirect?to=\(escaped)&status=302"))])
            guard case .failure(let error) = results[0] else {
                Issue.record("a redirect to \(target) was followed")
                continue
            }
            #expect(error.category == .download && error.description.contains("not http or https"), "\(target): \(error)")
        }
    }

    @Test func otherSchemesAreRefusedWithoutARequest() async throws {
        let results = try await fixture.fetcher().fetch([RemoteFile(url: "ftp://127.0.0.1/x.bin")])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false)) }
        #expect(error.category == .download)
        #expect(try fixture.stats().isEmpty)
    }

    @Test func aConnectionRefusedFailsAfterItsAttempts() async throws {
        let port = try LoopbackHTTP.freePort()
        let results = try await fixture.fetcher(attempts: 2).fetch([RemoteFile(url: "http://127.0.0.1:\(port)/x.bin")])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false)) }
        #expect(error.category == .download && error.description.contains("2 attempts"), "\(error)")
    }
}
