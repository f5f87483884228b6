import Dispatch
import Foundation
import PreloadTestSupport
import Testing

@_spi(Diagnostics) @testable import Preload

/// Small files share loads (one `LoadOperation` for several), and nothing a caller sees changes:
/// every asset keeps its outcome, hooks, store entry, place in ordered delivery and progress.
/// The batches here run one worker wide, so 40 files make loads of 10 (a quarter of the files
/// per worker); `report.diagnostics.loads` proves they did.
@Suite struct LoadGroupingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `count` text files `file00.txt`..., with the texts given by `text`.
    func files(_ count: Int, text: (Int) -> String = { "text \($0)" }) throws -> [AssetRequest] {
        try (0..<count).map { index in
            let name = String(format: "file%02d", index)
            return AssetRequest(path: try directory.write(name + ".txt", text: text(index)), name: name)
        }
    }

    func coordinator(_ plugins: [any LoaderPlugin]) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: plugins, configuration: .init(maxConcurrentLoads: 1))
    }

    @Test func eachAssetKeepsItsOutcomeHooksStoreEntryAndPlaceInRequestOrder() async throws {
        let requests = try files(40)
        let coordinator = try coordinator([TextLoader()])
        let delivered = Recorder<String>()
        let report = try await coordinator.start(
            requests, options: PreloadOptions(assetEventOrder: .request),
            hooks: PreloadHooks(onAssetLoaded: { delivered.append($0.request.name) })
        ).finished()
        #expect(report.diagnostics.loads == 4, "40 files in loads of 10, not \(report.diagnostics.loads)")
        #expect(report.everythingLoaded && report.results.map(\.request.name) == requests.map(\.name))
        #expect(delivered.all == requests.map(\.name), "one hook per asset, in request order")
        for (index, request) in requests.enumerated() {
            #expect(coordinator.assets.asset(named: request.name, as: TextAsset.self)?.text == "text \(index)")
        }
        #expect(Set(report.results.compactMap(\.assetIndex)).count == 40, "an asset each")
    }

    @Test func aFailingFileInALoadFailsAlone() async throws {
        let requests = try files(40) { $0 == 13 ? "FAIL" : "text \($0)" }
        let failures = Recorder<String>()
        let report = try await coordinator([TextLoader()]).start(
            requests, hooks: PreloadHooks(onAssetFailed: { failures.append($0.request.name) })
        ).finished()
        #expect(report.diagnostics.loads == 4)
        #expect(report.loaded.count == 39 && report.cancelled.isEmpty)
        #expect(report.failed.map(\.request.name) == ["file13"] && failures.all == ["file13"])
        #expect(report.errors.first?.description == "\(requests[13].path): text says FAIL")
    }

    /// A cancelled load stops between files: the file running when the batch is cancelled
    /// notices at its next check, and the files after it in the same load never start.
    @Test func cancellingMidLoadStopsWithinOneFileAndReportsTheRestCancelled() async throws {
        let gate = Gate()
        let paths = try (0..<20).map { try directory.write("slow\($0).gate", text: "\($0)") }
        let coordinator = try coordinator([GateLoader(gate: gate)])
        let batch = coordinator.start(paths.map { AssetRequest(path: $0) })
        #expect(await gate.started.waitWithoutBlocking(seconds: 120), "the first file started")
        batch.cancel()
        gate.release()
        let report = try await batch.finished()
        #expect(report.diagnostics.loads == 4, "20 files in loads of 5")
        #expect(report.cancelled.count == 20, "the running file stopped too: \(report.loaded.count) loaded")
        #expect(gate.stepsTaken.count == 0)
        #expect(gate.started.wait(timeout: .now()) == .timedOut, "no other file started")
        #expect(report.wasCancelled)
    }

    @Test func failFastStopsTheFailingLoadAndEveryOther() async throws {
        let requests = try files(40) { $0 == 3 ? "FAIL" : "text \($0)" }
        let loader = TextLoader()
        let report = try await coordinator([loader]).start(requests, options: PreloadOptions(failurePolicy: .failFast)).finished()
        #expect(report.failed.map(\.request.name) == ["file03"])
        #expect(loader.loads.count == 4, "the failure cancels the rest of its load at once")
        #expect(report.cancelled.count == 36 && report.wasCancelled)
    }

    @Test func aRequestMergedWithAFileInAnotherLoadLoadsOnce() async throws {
        var requests = try files(40)
        requests.append(AssetRequest(path: directory.path + "/./file00.txt", name: "again"))  // same file, another spelling
        let loader = TextLoader()
        let coordinator = try coordinator([loader])
        let loaded = Recorder<String>()
        let report = try await coordinator.start(requests, hooks: PreloadHooks(onAssetLoaded: { loaded.append($0.request.name) })).finished()
        #expect(loader.loads.count == 40, "41 requests, 40 files")
        #expect(report.loaded.count == 41 && loaded.all.count == 41)
        #expect(report.results[0].assetIndex == report.results[40].assetIndex)
        #expect(coordinator.assets.asset(named: "again", as: TextAsset.self)?.text == "text 0")
    }

    @Test func progressStaysMonotonicAndEndsAtOneWithLoadsOfSeveralFiles() async throws {
        let requests = try files(60) { String(repeating: "x", count: 100 * ($0 + 1)) }  // weights differ
        let seen = Recorder<PreloadProgress>()
        let report = try await coordinator([TextLoader()]).start(
            requests, options: PreloadOptions(progressInterval: .zero), hooks: PreloadHooks(onProgress: { seen.append($0) })
        ).finished()
        #expect(report.diagnostics.loads == 4)
        let fractions = seen.all.map(\.fractionCompleted)
        #expect(fractions == fractions.sorted(), "never backwards: \(fractions)")
        #expect(fractions.last == 1.0 && seen.all.last?.isFinished == true)
        #expect(fractions.count >= 3, "the loads' completions show: \(fractions)")
        #expect(seen.all.last?.finishedAssets == 60 && seen.all.last?.totalUnitCount == Int64((1...60).reduce(0, +) * 100))
    }
}

/// How a batch cuts its assets into loads.
@Suite struct LoadGroupingRuleTests {
    func items(_ works: [Int64], plugin: any LoaderPlugin = TextLoader()) -> [LoadGrouping.Item] {
        works.indices.map { index in
            LoadGrouping.Item(item: LoadItem(asset: index, contents: nil), work: works[index], alone: plugin.loadsAsynchronously)
        }
    }

    @Test func loadsHaveAQuarterOfEachWorkersFilesAtMostAndStopAtTheirWork() {
        let grouping = LoadGrouping(requestCount: 1000, workers: 2)
        #expect(grouping.maxAssets == 125)
        #expect(grouping.loads(items(Array(repeating: 300, count: 1000))).map(\.count) == Array(repeating: 125, count: 8))
        #expect(LoadGrouping(requestCount: 100_000, workers: 2).maxAssets == LoadGrouping.largestLoad)
        #expect(LoadGrouping(requestCount: 5, workers: 16).maxAssets == 1, "a small batch keeps a load per file")
        // 100 KiB files: five fill a load's work.
        #expect(grouping.loads(items(Array(repeating: 100 << 10, count: 12))).map(\.count) == [5, 5, 2])
    }

    @Test func aLargeFileHasALoadOfItsOwn() {
        let grouping = LoadGrouping(requestCount: 1000, workers: 2)
        let loads = grouping.loads(items([300, 300, 4 << 20, 300, 300]))
        #expect(loads.map { $0.map(\.asset) } == [[0, 1], [2], [3, 4]])
    }

    /// Under a memory budget a load's decoded bytes stay within a worker's share of it: the
    /// budget admits a load by their sum. Small files decoding to 64 MiB each were admitted six
    /// at a time under 80 MiB. Only one file larger than the share has a load of its own.
    @Test func underABudgetALoadsDecodedBytesStayWithinAWorkersShare() {
        let grouping = LoadGrouping(requestCount: 1000, workers: 2, budget: 80 << 20)
        #expect(grouping.maxDecodedBytes == 40 << 20)
        var big = items(Array(repeating: 72 << 10, count: 6))  // a load's work would take all six
        for index in big.indices { big[index].item.decodedBytes = 64 << 20 }
        #expect(grouping.loads(big).map(\.count) == [1, 1, 1, 1, 1, 1])
        var mixed = items(Array(repeating: 300, count: 7))
        for (index, bytes) in [10 << 20, 10 << 20, 20 << 20, 1 << 20, 50 << 20, 1, 1].enumerated() { mixed[index].item.decodedBytes = bytes }
        #expect(grouping.loads(mixed).map { $0.map(\.asset) } == [[0, 1, 2], [3], [4], [5, 6]])
        #expect(LoadGrouping(requestCount: 1000, workers: 2).maxDecodedBytes == .max, "no budget, no cut")
    }

    @Test func filesOfAnAsynchronousPluginEachHaveTheirOwnLoad() {
        let grouping = LoadGrouping(requestCount: 1000, workers: 2)
        #expect(grouping.loads(items([300, 300, 300], plugin: DelayLoader())).map(\.count) == [1, 1, 1])
    }
}
