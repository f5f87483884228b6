import Foundation
import Preload
import Testing

@testable import PreloadRemote

/// Cancelled downloads stop at once and leave the cache consistent: no stray temporary file,
/// every kept partial download named in the index, every cached file whole.
@Suite struct CancellationTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    @Test func twoHundredCancelledDownloadsLeaveTheCacheConsistent() async throws {
        try fixture.serve("slow.bin", RemoteFixture.bytes(64_000))
        let fetcher = try fixture.fetcher(stall: .seconds(120), downloads: 8)
        var cancelledCount = 0
        for round in 0..<25 {
            let arrived = AsyncStream<Void>.makeStream()
            let session = SourceSession(onProgress: { _, received in if received > 0 { arrived.continuation.yield() } })
            // Some stall after a few bytes (cut midway), some after none (cut before the body).
            let files = (0..<8).map { index in
                RemoteFile(url: fixture.url("stall/slow.bin?after=\(index % 2 == 0 ? 4096 : 0)&seconds=60&times=1&r=\(round)&i=\(index)"))
            }
            async let results = fetcher.fetch(files, session: session)
            var iterator = arrived.stream.makeAsyncIterator()
            if round % 2 == 0 { _ = await iterator.next() }  // half the rounds: once bytes arrive; the others at once
            session.cancel()
            for result in await results {
                guard case .failure(let error) = result else { continue }
                #expect(error.underlying as? RemoteFetchError == .cancelled, "\(error)")
                cancelledCount += 1
            }
        }
        #expect(cancelledCount == 200)
        let contents = try fixture.cacheContents()
        let statistics = try fixture.cache().statistics
        #expect(contents.blobs.isEmpty && statistics.files == 0)
        #expect(contents.partials.count == statistics.partials, "\(contents.partials)")
        #expect(!FileManager.default.fileExists(atPath: fixture.cacheFolder.path + "/index.json.tmp"))
        // What was kept resumes: the next fetch of one of them asks only for the rest.
        let kept = try #require(try fixture.cache().withIndex { $0.partials.first })
        let keptBytes = Int64(
            try FileManager.default.attributesOfItem(atPath: fixture.cacheFolder.path + "/partial/" + kept.value.file)[.size] as! Int)
        #expect(keptBytes > 0)
        let again = try only(await fetcher.fetch([RemoteFile(url: kept.key)]))
        #expect(again.transfer.cacheBytes == keptBytes && again.transfer.networkBytes == 64_000 - keptBytes, "\(again.transfer)")
    }
}
