import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// The retry budget counts attempts that bring no new byte: a download cut again and again but
/// getting further each time goes on to the end; one that gives up says how far it got; a
/// resume and a restart are told in the transfer.
@Suite struct ProgressRetryTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    @Test func aDownloadCutMoreTimesThanTheBudgetButProgressingFinishes() async throws {
        let bytes = RemoteFixture.bytes(1_000_000, seed: 21)
        let promise = try fixture.serve("cut.bake", bytes)
        // Cut 8 times after 100 000 bytes of each response; a budget of 3 attempts without progress.
        let fetched = try await only(
            fixture.fetcher(attempts: 3).fetch([RemoteFile(url: fixture.url("drop/cut.bake?after=100000&times=8"), expected: promise)]))
        #expect(bytesOnDisk(fetched) == bytes)
        #expect(fetched.transfer.attempts == 9 && fetched.transfer.retries == 8, "\(fetched.transfer)")
        #expect(fetched.transfer.resumedAt == 100_000 && fetched.transfer.restart == nil, "\(fetched.transfer)")
        let seen = try fixture.stats()
        #expect(seen.count == 9 && seen.filter(\.cut).count == 8)
        #expect(seen.dropFirst().map(\.status).allSatisfy { $0 == 206 }, "\(seen.map(\.status))")
    }

    @Test func aDownloadThatGivesUpSaysHowFarItGotAndTheNextFetchGoesOn() async throws {
        let bytes = RemoteFixture.bytes(1_000_000, seed: 22)
        let promise = try fixture.serve("far.bake", bytes)
        let url = fixture.url("drop/far.bake?after=100000&times=20")
        // The sanity bound: 4 requests in all, each progressing.
        let results = try await fixture.fetcher(attempts: 3, maxRequests: 4).fetch([RemoteFile(url: url, expected: promise)])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "it loaded") }
        guard case .transfer(let failure) = error.underlying as? RemoteFetchError else { return #expect(Bool(false), "\(error)") }
        #expect(failure.attempts == 4 && failure.cuts == 4 && failure.received == 400_000 && failure.total == 1_000_000, "\(failure)")
        #expect(failure.keptForResuming)
        #expect(error.path == url && error.category == .download)
        #expect(error.description.contains("cut 4 times, at byte 400000 of 1000000 (kept for resuming"), "\(error)")
        #expect(!error.description.contains("no such file"), "\(error)")
        // What was kept is where the next fetch goes on from.
        let again = try await only(fixture.fetcher(attempts: 3).fetch([RemoteFile(url: url, expected: promise)]))
        #expect(bytesOnDisk(again) == bytes)
        #expect(again.transfer.cacheBytes == 400_000 && again.transfer.resumedAt == 400_000, "\(again.transfer)")
    }

    @Test func aBakedPackThatCannotBeFetchedFailsWithTheFetchsCause() async throws {
        try fixture.serve("level.bake", RemoteFixture.bytes(300_000, seed: 25))  // never whole: the cause is the transfer
        let url = fixture.url("drop/level.bake?after=0&times=99&as=.bake")  // ends in .bake, as a plain URL does
        let coordinator = try PreloadCoordinator(plugins: [BakedPackLoader()], configuration: .init(fetcher: try fixture.fetcher(attempts: 2)))
        let report = try await coordinator.preload([AssetRequest(path: url, name: "level")])
        let error = try #require(report.failed.first?.outcome.error, "\(report.results.map(\.request.path))")
        #expect(report.failed.count == 1 && report.failed.first?.request.name == "level")
        #expect(error.path == url && error.category == .download, "\(error)")
        #expect(error.description.contains("download gave up after 2 attempts: cut 2 times"), "\(error)")
        #expect(!error.description.contains("no such file"), "\(error)")
    }

    @Test func attemptsThatBringNothingNewStillGiveUp() async throws {
        let bytes = RemoteFixture.bytes(500_000, seed: 23)
        let promise = try fixture.serve("stuck.bin", bytes)
        // A server that ignores ranges and cuts at the same byte every time: no progress after the first.
        let url = fixture.url("drop/stuck.bin?after=100000&times=99&ranges=0")
        let results = try await fixture.fetcher(attempts: 3).fetch([RemoteFile(url: url, expected: promise)])
        guard case .failure(let error) = results[0] else { return #expect(Bool(false), "it loaded") }
        guard case .transfer(let failure) = error.underlying as? RemoteFetchError else { return #expect(Bool(false), "\(error)") }
        #expect(failure.attempts == 4 && failure.cuts == 4, "1 with progress, then 3 without: \(failure)")
        #expect(try fixture.stats().count == 4)
    }

    @Test func aServerThatIgnoresRangesRestartsCleanlyAndSaysSo() async throws {
        let bytes = RemoteFixture.bytes(400_000, seed: 24)
        let promise = try fixture.serve("whole.bin", bytes)
        let fetched = try await only(
            fixture.fetcher().fetch([RemoteFile(url: fixture.url("drop/whole.bin?after=150000&times=1&ranges=0"), expected: promise)]))
        #expect(bytesOnDisk(fetched) == bytes, "the whole body is written from byte 0, not appended")
        #expect(fetched.transfer.restart == .ignoresRanges && fetched.transfer.resumedAt == nil, "\(fetched.transfer)")
        #expect(fetched.transfer.networkBytes == 150_000 + 400_000 && fetched.transfer.retries == 1)
        let seen = try fixture.stats()
        #expect(seen.map(\.status) == [200, 200] && seen[1].range == "bytes=150000-", "\(seen)")
        #expect(try fixture.cacheContents().partials.isEmpty)
    }

    @Test func backoffStartsAgainAfterProgress() {
        var attempts = DownloadAttempts()
        let policy = RetryPolicy(attempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(60), jitter: 0)
        attempts.ended(holding: 0, cut: true)
        attempts.ended(holding: 0, cut: true)
        #expect(attempts.delay(under: policy, serverSaid: nil) == .seconds(2))
        attempts.ended(holding: 10, cut: true)
        #expect(attempts.withoutProgress == 0 && attempts.delay(under: policy, serverSaid: nil) == .seconds(1))
        #expect(attempts.allowsAnother(under: policy) && attempts.cuts == 3)
    }
}
