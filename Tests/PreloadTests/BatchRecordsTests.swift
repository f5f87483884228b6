import Foundation
import PreloadTestSupport
import Testing

@testable import Preload

/// Loads `.note` files as ``TextAsset``, warning about each that says "WARN": a second plugin
/// beside ``TextLoader``, so that a batch's records number more than one plugin.
struct NoteLoader: LoaderPlugin {
    var identifier: String { "note-with-a-long-identifier" }  // longer than a small string
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["note"] }

    func load(_ context: LoadContext) throws -> any Asset {
        let text = String(decoding: try context.readContents(), as: UTF8.self)
        if text.contains("WARN") {
            try context.warn([AssetWarning("note.said-warn", "\(context.request.path) says WARN"), AssetWarning("note.again", "twice")])
        }
        return TextAsset(text: text)
    }
}

/// What a batch records of each asset (``AssetRecords``: one small record per asset, plugins
/// numbered once per batch, the rare fields apart; ``RecordedTimings``) reads back as each
/// result, its timings and its warnings, for every entry of a large batch.
@Suite struct BatchRecordsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// 100,000 files of two plugins, some failing, some warning, then 1,000 requests repeating
    /// earlier ones under names of their own: every result has its own request and its asset's
    /// plugin, outcome, warnings, weight, duration and timings; a repeat shares its asset's.
    @Test func aHundredThousandEntriesReadBackAsTheyEnded() async throws {
        let count = 100_000
        let root = directory.file("memory")
        var texts: [String: String] = [:]
        func path(_ index: Int) -> String { root + (index % 3 == 0 ? "/\(index).note" : "/\(index).txt") }
        func fails(_ index: Int) -> Bool { index % 3 != 0 && index % 7 == 0 }  // a text (not a note) that says FAIL
        func text(_ index: Int) -> String {
            index % 7 == 0 ? "FAIL \(index)" : index % 5 == 0 ? "WARN \(index)" : String(repeating: "x", count: index % 13 + 1)
        }
        for index in 0..<count { texts[path(index)] = text(index) }
        let coordinator = try PreloadCoordinator(
            plugins: [TextLoader(), NoteLoader()],
            configuration: .init(maxConcurrentLoads: 2, sources: [MemoryTexts(root: root, texts: texts)]))
        let repeats = (0..<1_000).map { $0 * 97 }
        let requests =
            (0..<count).map { AssetRequest(path: path($0), name: "asset \($0)") } + repeats.map { AssetRequest(path: path($0), name: "again \($0)") }
        let report = try await coordinator.start(requests, options: PreloadOptions(storesAssets: false)).finished(within: 600)

        #expect(report.results.count == requests.count)
        for (position, result) in report.results.enumerated() {
            let index = position < count ? position : repeats[position - count]
            let text = text(index)
            #expect(result.request.name == requests[position].name)
            #expect(result.plugin == (index % 3 == 0 ? "note-with-a-long-identifier" : "text"))
            #expect(result.progressWeight == Int64(text.utf8.count))
            switch result.outcome {
            case .loaded(let asset):
                #expect((asset as? TextAsset)?.text == text && !fails(index))
                let warns = index % 3 == 0 && text.hasPrefix("WARN")
                #expect(result.warnings.map(\.code.rawValue) == (warns ? ["note.said-warn", "note.again"] : []))
                let timings = try #require(report.timings(of: result))
                #expect(timings.reading + timings.decoding == result.duration && timings.queued >= .zero)
                #expect(timings.waitingForMemory == .zero)
            case .failed(let error):
                #expect(fails(index) && error.path == path(index) && result.warnings.isEmpty)
            case .cancelled:
                Issue.record("\(result.request.name) was cancelled")
            }
            guard position >= count else { continue }
            let first = report.results[index]
            #expect(result.assetIndex == first.assetIndex && result.duration == first.duration)
            #expect(report.timings(of: result) == report.timings(of: first))
        }
        #expect(report.results.outcomeCounts.failed == (0..<count).count(where: fails) + repeats.count(where: fails))
        #expect(report.hasWarnings && report.results.contains(plugin: "note-with-a-long-identifier"))
        #expect(!report.results.contains(plugin: "pack"))
    }

    /// A result whose asset a dependency made (a bundle's part, named by the caller too) has that
    /// asset's plugin, outcome, duration and timings; the bundle's and the part's records stay
    /// apart.
    @Test func aMergedEntryHasItsAssetsRecord() async throws {
        let part = try directory.write("part.txt", text: "part")
        let bundle = try directory.write("all.bundle", text: "part.txt")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader(), BundleLoader(order: Recorder())])
        let report = try await coordinator.preload([AssetRequest(path: bundle), AssetRequest(path: part, name: "mine")])
        #expect(report.everythingLoaded && report.allResults.count == 3)
        let dependency = try #require(report.dependencies.first)
        let mine = try #require(report.results.first { $0.request.name == "mine" })
        let all = try #require(report.results.first { $0.request.path == bundle })
        #expect(dependency.assetIndex == mine.assetIndex && dependency.duration == mine.duration && dependency.plugin == "text")
        #expect(report.timings(of: dependency) != nil && report.timings(of: dependency) == report.timings(of: mine))
        #expect(all.plugin == "bundle" && (all.outcome.asset as? TextAsset)?.text == "part")
        #expect(mine.progressWeight == 4 && dependency.progressWeight == 4)
    }

    /// What the batch keeps per asset beyond the asset itself stays small: 64 bytes of record
    /// (the asset's 40-byte existential; its weight, its duration, its plugin's number and how it
    /// stands in 24) and 16 bytes of timings, where a record was 112 and its timings 72.
    @Test func anAssetsRecordsAreSmall() {
        #expect(MemoryLayout<AssetRecords.Slot>.stride + MemoryLayout<(any Asset)?>.stride <= 64)
        var timings = RecordedTimings()
        timings.grow(to: 1_000, reserving: 1_000)
        for asset in 0..<1_000 {
            timings.record(queued: Int64(asset) * 1_000_000, reading: 0, waited: 0, of: asset)
        }
        #expect(timings.bytesPerAsset <= 16, "no budget, no wait kept")
        #expect(timings.timings(of: 999, duration: .seconds(1))?.queued == .milliseconds(999))
        #expect(timings.timings(of: 1_000, duration: .seconds(1)) == nil)
    }

    /// A batch that does not record timings (``PreloadOptions/recordsTimings`` off: the command
    /// without `--json`) keeps none, 16 bytes an asset less: every result's timings are `nil`.
    /// By default each result that loaded has them.
    @Test func timingsAreKeptOnlyWhenRecorded() async throws {
        let paths = try (0..<3).map { try directory.write("timed/\($0).txt", text: "\($0)") }
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let recorded = try await coordinator.preload(paths.map { AssetRequest(path: $0) })
        #expect(recorded.everythingLoaded && recorded.results.allSatisfy { recorded.timings(of: $0) != nil })
        let unrecorded = try await coordinator.preload(paths.map { AssetRequest(path: $0) }, options: PreloadOptions(recordsTimings: false))
        #expect(unrecorded.everythingLoaded && unrecorded.results.count == 3)
        #expect(unrecorded.results.allSatisfy { unrecorded.timings(of: $0) == nil })
        #expect(unrecorded.assetTimings.bytesPerAsset == 0)
    }

    /// What a batch keeps per asset until its load starts (a baked pack of a million entries: a
    /// million items): 32 bytes, where an item held what its plugin declared inline (48); an
    /// item's declared dependencies are still its own when a copy of it is changed.
    @Test func aLoadItemIsSmallAndItsCopiesKeepTheirOwnDependencies() {
        #expect(MemoryLayout<LoadItem>.stride <= 32, "\(MemoryLayout<LoadItem>.stride)")
        var item = LoadItem(asset: 1, contents: nil)
        #expect(!item.hasDependencies && item.dependencyOutcomes == nil)
        item.dependencies.append((AssetRequest(path: "a.png"), 2))
        var copy = item
        copy.dependencies.append((AssetRequest(path: "b.png"), 3))
        copy.dependencyFailures[AssetRequest(path: "c.png")] = AssetError(path: "c.png", category: .fileNotFound, reason: "gone")
        #expect(item.dependencies.map(\.asset) == [2] && item.dependencyFailures.isEmpty)
        #expect(copy.dependencies.map(\.asset) == [2, 3] && copy.dependencyFailures.count == 1)
        #expect(copy.dependencyOutcomes === item.dependencyOutcomes, "one item's outcomes, however many copies")
    }
}
