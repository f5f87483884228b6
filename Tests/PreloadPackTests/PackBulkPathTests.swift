import Foundation
import PreloadAuthoring
import Preload
import PreloadAtlas
import PreloadConcurrency
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// A pack's entries are its dependencies. `PackLoader` lists them at once (`BulkDependingPlugin`:
/// planned from its index's rows, read a run at a time from the pack opened once per run);
/// the same plugin without that conformance (`EntryByEntryPack`) has them planned and read one by
/// one. The two give the same batch: results, outcomes, events, store names, progress.
@Suite struct PackBulkPathTests {
    private typealias Observed = BatchObservation

    /// `PackLoader` without the bulk path: every call forwarded, no `BulkDependingPlugin`.
    private struct EntryByEntryPack: ForwardingPack {
        let pack = PackLoader()
    }

    /// `PackLoader` on the bulk path, counting the runs the batch hands it and their entries.
    private struct CountingPack: ForwardingPack, BulkDependingPlugin {
        let pack = PackLoader()
        let runs = Recorder<Int>()
        /// The entries whose first bytes the claim rule read by their positions.
        let prefixes = Recorder<Int>()
        var readsEntriesForOtherPlugins: Bool { pack.readsEntriesForOtherPlugins }
        func bulkDependencies(of request: PlannedRequest) throws -> BulkEntries? { try pack.bulkDependencies(of: request) }
        func loadEntries(_ run: BulkEntryRun) throws {
            runs.append(run.count)
            try pack.loadEntries(run)
        }
        func entryPrefix(at position: Int, in container: String, containerFacts: FileFacts, count: Int) throws -> [UInt8]? {
            prefixes.append(position)
            return try pack.entryPrefix(at: position, in: container, containerFacts: containerFacts, count: count)
        }
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private static func describe(_ outcome: AssetOutcome) -> String {
        if let texture = outcome.asset as? Texture {
            return "texture \(texture.width)x\(texture.height) \(texture.pixels.withUnsafeBytes { $0.reduce(0) { $0 &* 31 &+ Int($1) } })"
        }
        if let atlas = outcome.asset as? TextureAtlas { return "atlas \(atlas.frames.count) \(atlas.pages.map(\.path))" }
        if let data = outcome.asset as? DataAsset { return "data \(data.bytes.array.reduce(0) { $0 &* 31 &+ Int($1) })" }
        if let pack = outcome.asset as? PackAsset {
            return "pack " + pack.entries.map { "\($0.name)=\(describe($0.outcome))" }.joined(separator: ",")
        }
        if let asset = outcome.asset { return "\(type(of: asset))" }
        if let error = outcome.error { return "\(error.path) \(error.category) \(error.reason)" }
        return "cancelled"
    }

    private static func observe(
        _ requests: [AssetRequest], pack: any LoaderPlugin, options: PreloadOptions = PreloadOptions(), jobs: Int = 2
    ) async throws -> (Observed, PreloadReport) {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), pack], configuration: .init(maxConcurrentLoads: jobs))
        return try await BatchObservation.observe(requests, with: coordinator, options: options, describe: describe)
    }

    /// The batch of `requests` entry by entry, then on the bulk path: what each observed, the
    /// bulk path's report, and the runs it was handed.
    private func bothPaths(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), jobs: Int = 2
    ) async throws -> (alone: Observed, bulk: Observed, report: PreloadReport, runs: [Int], prefixes: Int) {
        let (alone, _) = try await Self.observe(requests, pack: EntryByEntryPack(), options: options, jobs: jobs)
        let counting = CountingPack()
        let (bulk, report) = try await Self.observe(requests, pack: counting, options: options, jobs: jobs)
        return (alone, bulk, report, counting.runs.all, counting.prefixes.all.count)
    }

    /// A stored zip of `count` small PNGs and a text file.
    private func storedZip(_ name: String, count: Int, claims: Bool = false) throws -> String {
        var entries: [(name: String, bytes: [UInt8])] = (0..<count).map { index in
            (name: "tiles/t\(index).png", bytes: PNGFixture.rgba(width: 4, height: 4, pixels: (0..<64).map { UInt8(($0 + index) & 0xFF) }))
        }
        entries.append((name: "notes.txt", bytes: Array("hello".utf8)))
        if claims {  // claimed by content alone, and a `.png` that is none
            entries.append((name: "odd/picture.bin", bytes: PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 7, count: 16))))
            entries.append((name: "odd/text.png", bytes: Array("not a picture".utf8)))
        }
        return try directory.write(name, ZipFixture.stored(entries))
    }

    @Test(arguments: ["pak", "python-deflate.zip", "infozip-zip64.zip", "stored.zip"])
    func aPackLoadsTheSameOnTheBulkPathAsEntryByEntry(_ kind: String) async throws {
        let pack: String
        switch kind {
        case "pak":
            pack = directory.file("game.pak")
            try PakWriter.write(try PakWriter.sources(in: ZipAndGzipTests.sources), to: pack, level: 6, jobs: 2)
        case "stored.zip": pack = try storedZip("stored.zip", count: 40, claims: true)
        default: pack = ZipAndGzipTests.fixtures + "/" + kind
        }
        let (alone, bulk, report, runs, prefixes) = try await bothPaths([AssetRequest(path: pack)])
        #expect(report.everythingLoaded == (kind != "stored.zip"), "\(report.errors)")
        #expect(prefixes > 0, "the claim rule read entries' first bytes by their positions")
        #expect(bulk == alone)
        #expect(!bulk.dependencies.isEmpty && bulk.results.count == 1)
        if kind == "stored.zip" {
            #expect(bulk.dependencies.contains { $0.hasPrefix(pack + "#odd/picture.bin: texture 2x2") }, "claimed by its content")
            #expect(report.errors.map(\.path) == [pack + "#odd/text.png"], "\(report.errors)")
        }
        let entries = try PackLoader().index(of: pack).entries.count
        // Every entry comes in a run but an atlas (it has dependencies: loaded alone) and its
        // page, which comes after it in these packs (made an asset when the atlas was planned).
        let aloneCount = kind == "stored.zip" ? 0 : 2
        #expect(runs.reduce(0, +) == entries - aloneCount, "\(runs)")
    }

    @Test func anAtlasInsideAZipStillGetsItsPageOnTheBulkPath() async throws {
        let pack = ZipAndGzipTests.fixtures + "/python-deflate.zip"
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        let asset = try #require(coordinator.assets.asset(atPath: pack) as? PackAsset)
        let atlas = try #require(asset.entry(named: "art/ui.json")?.asset as? TextureAtlas)
        #expect(atlas.pages.map(\.path) == [pack + "#art/ui.png"])
        let pages = Set(report.allResults.filter { $0.request.path == pack + "#art/ui.png" }.compactMap(\.assetIndex))
        #expect(pages.count == 1, "the page the atlas needs and the zip's own entry are one load")
    }

    @Test func aDamagedEntryFailsAloneByItsPathOnBothPaths() async throws {
        // A stored entry whose bytes no longer match its CRC, and a deflated one cut short.
        var stored = try ZipAndGzipTests.bytes(try storedZip("clean.zip", count: 6))
        let crcEntry = try #require(try ZipFile.index(at: directory.file("clean.zip")).entry(named: "tiles/t2.png"))
        stored[Int(crcEntry.offset) + 20] ^= 0x5A
        var deflated = try ZipAndGzipTests.bytes(ZipAndGzipTests.fixtures + "/infozip.zip")
        let level = try #require(try ZipFile.index(at: ZipAndGzipTests.fixtures + "/infozip.zip").entry(named: "levels/1.json"))
        for offset in Int(level.offset + level.storedSize / 2)..<Int(level.offset + level.storedSize) { deflated[offset] = 0 }
        for (name, bytes, entry) in [("crc.zip", stored, "tiles/t2.png"), ("cut.zip", deflated, "levels/1.json")] {
            let pack = try directory.write(name, bytes)
            let (alone, bulk, report, runs, _) = try await bothPaths([AssetRequest(path: pack)])
            #expect(bulk == alone)
            #expect(!runs.isEmpty)
            #expect(report.errors.map(\.path) == [pack + "#" + entry], "\(report.errors)")
            #expect(report.errors.first?.category == .corrupt)
            #expect(bulk.failedEvents == [pack + "#" + entry])
        }
    }

    @Test func anEntryAloneAndAPackLoadedAgainStillLoad() async throws {
        let pack = try storedZip("again.zip", count: 8)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let one = try await coordinator.preload([AssetRequest(path: pack + "#tiles/t3.png", name: "three")])
        #expect(one.everythingLoaded && one.allResults.count == 1, "\(one.errors)")
        #expect(coordinator.assets.texture(named: "three")?.width == 4)
        let first = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(first.everythingLoaded, "\(first.errors)")
        // The pack rewritten in place: the next batch reads the new entries (its index again).
        let before = try #require(coordinator.assets.texture(named: pack + "#tiles/t0.png"))
        _ = try storedZip("again.zip", count: 9)
        let second = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(second.everythingLoaded, "\(second.errors)")
        #expect(second.dependencies.count == 10)
        #expect(coordinator.assets.texture(named: pack + "#tiles/t8.png") != nil)
        #expect(coordinator.assets.texture(named: pack + "#tiles/t0.png") == before, "same bytes, same pixels")
    }

    @Test func aMemoryBudgetAdmitsAndHandsOverTheSameOnBothPaths() async throws {
        let pack = try storedZip("budget.zip", count: 12)
        var handed: [[String]] = [], peaks: [Int] = [], observed: [Observed] = []
        let counting = CountingPack()
        for plugin in [EntryByEntryPack(), counting] as [any LoaderPlugin] {
            let handOff = AssetHandOff(releasesCPUCopies: true)
            let stop = Locked(false)
            defer { stop.withLock { $0 = true } }
            let uploaded = handOff.recordNamesOnAThread(until: stop)
            let options = PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 1 << 10)
            let (seen, report) = try await Self.observe([AssetRequest(path: pack)], pack: plugin, options: options, jobs: 1)
            #expect(report.everythingLoaded, "\(report.errors)")
            handed.append(uploaded.all)
            peaks.append(report.peakHeldBytes)
            observed.append(seen)
        }
        #expect(observed[1] == observed[0])
        #expect(counting.runs.all.reduce(0, +) == 13, "every entry in a run: \(counting.runs.all)")
        #expect(peaks[1] == peaks[0] && peaks[0] > 0, "\(peaks)")
        #expect(handed[1] == handed[0] && handed[0] == [pack], "the pack is handed over whole, with its entries: \(handed)")
    }

    @Test func twoZipsWithEntriesOfOneNameKeepBothStoreNames() async throws {
        let a = try storedZip("a.zip", count: 3), b = try storedZip("b.zip", count: 3)
        let (alone, bulk, report, runs, _) = try await bothPaths([AssetRequest(path: a, name: "level"), AssetRequest(path: b, name: "level")])
        #expect(bulk == alone)
        #expect(runs.reduce(0, +) == 8)
        #expect(report.dependencies.count == 8)
    }
}

/// A plugin that is `PackLoader` in every call a container plugin answers.
private protocol ForwardingPack: ContainerPlugin {
    var pack: PackLoader { get }
}

extension ForwardingPack {
    var identifier: String { pack.identifier }
    var assetKind: AssetKind { pack.assetKind }
    var fileExtensions: Set<String> { pack.fileExtensions }
    var headerLength: Int { pack.headerLength }
    var toleratesFailedDependencies: Bool { pack.toleratesFailedDependencies }
    func matchesSignature(_ header: [UInt8]) -> Bool { pack.matchesSignature(header) }
    func dependencies(of request: PlannedRequest) throws -> [AssetRequest] { try pack.dependencies(of: request) }
    func estimatedWork(for request: PlannedRequest) -> Int64? { pack.estimatedWork(for: request) }
    func load(_ context: LoadContext) throws -> any Asset { try pack.load(context) }
    func opensContainer(at path: String, header: [UInt8]) -> Bool { pack.opensContainer(at: path, header: header) }
    func entryNames(in container: String) throws -> [String] { try pack.entryNames(in: container) }
    func entrySize(_ entry: String, in container: String) throws -> Int64 { try pack.entrySize(entry, in: container) }
    func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64 {
        try pack.entrySize(entry, in: container, containerFacts: containerFacts)
    }
    func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        try pack.readEntry(entry, in: container, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
    }
    func entryPrefix(_ entry: String, in container: String, count: Int) throws -> [UInt8] {
        try pack.entryPrefix(entry, in: container, count: count)
    }
}
