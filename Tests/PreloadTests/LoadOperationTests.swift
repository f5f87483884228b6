import Dispatch
import Foundation
import PreloadTestSupport
import Testing

@_spi(Diagnostics) @testable import Preload

@Suite struct LoadOperationStateTests {
    @Test func legalPathRunsPendingExecutingFinishingFinished() {
        var state = LoadOperationState()
        #expect(state.phase == .pending)
        let began = state.begin()
        #expect(began && state.phase == .executing && state.isExecuting && !state.isFinished)
        let claimed = state.claimFinish()
        #expect(claimed && state.phase == .finishing && !state.isFinished)
        let marked = state.markFinished()
        #expect(marked && state.isFinished && !state.isExecuting)
    }

    @Test func illegalTransitionsChangeNothing() {
        var state = LoadOperationState()
        var attempts: [Bool] = []
        attempts.append(state.markFinished())  // finished without finishing: refused
        attempts.append(state.claimFinish())  // cancelled before start: allowed
        attempts.append(state.begin())  // started after finishing began: refused
        attempts.append(state.claimFinish())  // a second finish: refused
        attempts.append(state.markFinished())  // allowed
        attempts.append(state.markFinished())  // twice: refused
        attempts.append(state.begin())  // after the end: refused
        #expect(attempts == [false, true, false, false, true, false, false])
        #expect(state.isFinished)
    }
}

/// Completes each load twice: first with the file's text, then with an error.
struct TwiceLoader: LoaderPlugin {
    var identifier: String { "twice" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["twice"] }
    var loadsAsynchronously: Bool { true }
    let calls = Recorder<String>()

    func load(_ context: LoadContext, completion: @escaping @Sendable (Result<any Asset, any Error>) -> Void) {
        completion(Result { DataAsset(bytes: try context.readContents()) })
        completion(.failure(TextLoader.BadText()))
        calls.append(context.request.path)
    }
}

@Suite struct LoadOperationTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aThrownErrorFailsTheAssetNamingTheFile() async throws {
        let path = try directory.write("a.txt", text: "FAIL")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.start([AssetRequest(path: path)]).finished()
        let error = report.errors.first
        #expect(error?.path == path)
        #expect(error?.category == .corrupt)
        #expect(error?.description == "\(path): text says FAIL")
        #expect(error?.underlying is TextLoader.BadText)
    }

    @Test func aSecondCompletionIsIgnored() async throws {
        let paths = try (0..<6).map { try directory.write("\($0).twice", text: "\($0)") }
        let loader = TwiceLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        #expect(report.everythingLoaded && report.results.count == 6, "\(report.errors)")
        #expect(loader.calls.all.count == 6, "every load ran once")
        for (index, path) in paths.enumerated() {
            #expect((coordinator.assets.asset(named: path) as? DataAsset)?.bytes.array == Array("\(index)".utf8))
        }
    }

    /// A load that finishes later, from another thread, frees its queue slot. An asynchronous
    /// plugin's files each get a load of their own (they wait elsewhere, maybe for each other).
    @Test func asynchronousCompletionFromAnotherThreadFreesTheSlot() async throws {
        let paths = try (0..<8).map { try directory.write("\($0).delay", text: "10") }
        let loader = DelayLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        #expect(report.everythingLoaded && report.loaded.count == 8)
        #expect(report.diagnostics.loads == 8)
        #expect(report.results.allSatisfy { $0.duration >= .milliseconds(5) })
        #expect(loader.finished.all.count == 8)
    }
}
