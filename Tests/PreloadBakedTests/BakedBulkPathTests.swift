import Foundation
import Preload
import PreloadAtlas
import PreloadBaked
import PreloadConcurrency
import PreloadTestSupport
import Testing

/// Requesting a baked pack loads its entries through the bulk path (`BulkExpandingPlugin`:
/// planned from the index at once, loaded a run at a time); requesting each entry alone, the
/// requests `expand` returns, loads them one by one. The two give the same batch.
@Suite struct BakedBulkPathTests {
    private typealias Observed = BatchObservation

    private static func describe(_ outcome: AssetOutcome) -> String {
        if let texture = outcome.asset as? Texture {
            return "texture \(texture.width)x\(texture.height) \(texture.pixels.withUnsafeBytes { $0.reduce(0) { $0 &* 31 &+ Int($1) } })"
        }
        if let atlas = outcome.asset as? TextureAtlas { return "atlas \(atlas.frames.count) \(atlas.pages.map(\.path))" }
        if let asset = outcome.asset { return "\(type(of: asset))" }
        if let error = outcome.error { return "\(error.path) \(error.category) \(error.reason)" }
        return "cancelled"
    }

    private static func observe(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), jobs: Int = 2
    ) async throws -> (Observed, PreloadReport) {
        let coordinator = try PreloadCoordinator(plugins: BakedFixtures.plugins(), configuration: .init(maxConcurrentLoads: jobs))
        return try await BatchObservation.observe(requests, with: coordinator, options: options, describe: describe)
    }

    /// The pack's entries requested one by one: what `expand` asks for.
    private static func oneByOne(_ pack: String) throws -> [AssetRequest] {
        try BakedPackLoader().expand(AssetRequest(path: pack))
    }

    @Test func theSampleAssetsLoadTheSameThroughTheBulkPathAsOneByOne() async throws {
        let directory = try TemporaryDirectory()
        let pack = directory.file("sample.bake")
        try await BakedFixtures.bake([.folder(BakedFixtures.sampleAssets, name: "sample-assets")], to: pack)
        let (expected, aloneReport) = try await Self.observe(try Self.oneByOne(pack))
        let (observed, report) = try await Self.observe([AssetRequest(path: pack)])
        #expect(aloneReport.everythingLoaded && report.everythingLoaded, "\(report.errors)")
        #expect(observed == expected)
        #expect(report.results.map(\.request) == aloneReport.results.map(\.request), "the same callers, in order")
        #expect(report.results.contains { $0.outcome.asset is TextureAtlas }, "atlases, with their pages as dependencies")
        #expect(observed.progressTotal > 0 && observed.progressCompleted == observed.progressTotal)
    }

    @Test func aDamagedEntryFailsAloneByNameOnBothPaths() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await BakedPackDamageTests.smallPackBytes(in: directory)
        let surgery = PackSurgery(bytes)
        let b = try #require(surgery.position(of: "art/b.png"))
        bytes[Int(surgery.field(UInt64.self, record: b, at: 0)) + 5] ^= 0xFF
        let pack = try directory.write("damaged.bake", bytes)
        let (expected, _) = try await Self.observe(try Self.oneByOne(pack))
        let (observed, report) = try await Self.observe([AssetRequest(path: pack)])
        #expect(observed == expected)
        #expect(report.failed.map(\.request.path) == [pack + "#art/b.png"])
        #expect(report.errors.first?.reason.contains("entry 'art/b.png': its checksum does not match") == true, "\(report.errors)")
        #expect(observed.failedEvents == ["art/b.png"])
        #expect(report.loaded.map(\.request.name) == ["art/a.png", "art/c.png", "art/notes.txt"])
    }

    @Test func aMemoryBudgetAdmitsAndHandsOverTheSameOnBothPaths() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.noisePack(count: 12, side: 32, prefix: "s", in: directory)
        var handed: [[String]] = [], peaks: [Int] = [], observed: [Observed] = []
        for requests in [try Self.oneByOne(pack), [AssetRequest(path: pack)]] {
            let handOff = AssetHandOff(releasesCPUCopies: true)
            let stop = Locked(false)
            defer { stop.withLock { $0 = true } }
            let uploaded = handOff.recordNamesOnAThread(until: stop)
            let options = PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 10 << 10)
            let (seen, report) = try await Self.observe(requests, options: options, jobs: 1)
            #expect(report.everythingLoaded, "\(report.errors)")
            handed.append(uploaded.all)
            peaks.append(report.peakHeldBytes)
            observed.append(seen)
        }
        #expect(observed[1] == observed[0])
        #expect(peaks[1] == peaks[0] && peaks[0] > 0 && peaks[0] <= (10 << 10) + (4 << 10), "\(peaks)")
        #expect(handed[1] == handed[0] && handed[0] == (0..<12).map { "art/s-\($0).png" }, "handed over in request order")
    }

    /// Packs between loose files: an entry a pack listed is (its pack, its position) until it is
    /// read, each run numbered after what comes before it. The batch's requests, its results and
    /// `expandingFolders` list the same requests, in the same order, as each pack's `expand`
    /// between the loose files; each entry's result is its own (a run read at the wrong
    /// offset would give an entry of another pack, or a loose file's, its result).
    @Test func packsBetweenLooseFilesKeepEveryRequestInItsPlace() async throws {
        let directory = try TemporaryDirectory()
        let first = directory.file("first.bake")
        try FileManager.default.moveItem(atPath: try await BakedFixtures.noisePack(count: 5, side: 4, prefix: "p", in: directory), toPath: first)
        let second = try await BakedFixtures.noisePack(count: 3, side: 2, prefix: "q", in: directory)
        let loose = directory.file("art/p-0.png")
        enum Marked: AssetOptionKey { static let defaultValue = false }
        let marked = AssetOptions().with(Marked.self, true)
        let requests = [
            AssetRequest(path: loose, name: "loose-before"), AssetRequest(path: first, options: marked),
            AssetRequest(path: loose, name: "loose-between"), AssetRequest(path: second), AssetRequest(path: loose, name: "loose-after"),
        ]
        var expected: [AssetRequest] = []
        for request in requests { expected += request.path.hasSuffix(".bake") ? try BakedPackLoader().expand(request) : [request] }
        #expect(expected.count == 3 + 5 + 3)
        let coordinator = try BakedFixtures.coordinator()
        #expect(coordinator.registry.expandingFolders(requests) == expected)
        let batch = coordinator.start(requests)
        let report = await withCheckedContinuation { done in batch.whenFinished { done.resume(returning: $0) } }
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(batch.requests == expected)
        #expect(report.results.map(\.request) == expected)
        for result in report.results {
            let texture = try #require(result.outcome.asset as? Texture)
            let side = result.request.path.hasPrefix(second) ? 2 : 4
            #expect(texture.width == side, "\(result.request.name)")
        }
        #expect(report.results.filter { $0.request.options == marked }.count == 5, "the first pack's entries keep its options")
    }

    /// A pack requested twice: its listed entries keep no file facts of their own (they are
    /// made from the listing when compared), and each entry's second request still merges into
    /// the first one's asset, as one by one.
    @Test func aPackRequestedTwiceLoadsEachEntryOnce() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.noisePack(count: 4, side: 2, prefix: "t", in: directory)
        let (observed, report) = try await Self.observe([AssetRequest(path: pack), AssetRequest(path: pack)])
        let (expected, alone) = try await Self.observe(try Self.oneByOne(pack) + Self.oneByOne(pack))
        #expect(report.everythingLoaded && report.results.count == 8, "\(report.errors)")
        #expect(observed == expected)
        #expect(report.results.map(\.assetIndex) == alone.results.map(\.assetIndex))
        #expect(Set(report.results.compactMap(\.assetIndex)).count == 4, "one asset per entry")
    }

    @Test func twoPacksWithEntriesOfOneNameKeepBothOnBothPaths() async throws {
        let first = try TemporaryDirectory(), second = try TemporaryDirectory()
        let one = try await BakedFixtures.noisePack(count: 2, side: 4, prefix: "s", in: first)
        let two = try await BakedFixtures.noisePack(count: 3, side: 8, prefix: "s", in: second)
        var seen: [Observed] = []
        for requests in [try Self.oneByOne(one) + Self.oneByOne(two), [AssetRequest(path: one), AssetRequest(path: two)]] {
            let coordinator = try PreloadCoordinator(plugins: BakedFixtures.plugins())
            let report = try await coordinator.preload(requests)
            #expect(report.everythingLoaded, "\(report.errors)")
            #expect(report.results.map(\.request.name) == ["art/s-0.png", "art/s-1.png", two + "#art/s-0.png", two + "#art/s-1.png", "art/s-2.png"])
            #expect(report.warned.map(\.request.name) == [two + "#art/s-0.png", two + "#art/s-1.png"])
            #expect(report.warned.allSatisfy { $0.warnings.map(\.code) == [.storeNameTaken] })
            for (pack, side) in [(one, 4), (two, 8)] {
                #expect(coordinator.assets.texture(atPath: pack + "#art/s-1.png")?.width == side, "\(pack)'s own entry")
            }
            #expect(coordinator.assets.texture(named: "art/s-0.png")?.width == 4, "the first keeps the name")
            seen.append(try await Self.observe(requests).0)
        }
        #expect(seen[1] == seen[0])
    }
}
