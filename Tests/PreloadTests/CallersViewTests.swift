import Foundation
import Preload
import PreloadTestSupport
import Testing

/// The caller's words are the API's words: folders are requests, store names are what the
/// caller asked for, and the report's and hooks' default view is the caller's requests.
@Suite struct CallersViewTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aFolderIsARequestWalkedByTheLibrary() async throws {
        try directory.write("level/b.txt", text: "bee")
        try directory.write("level/sub/a.txt", text: "ay")
        try directory.write("level/notes.md", text: "no plugin claims this")
        try directory.write("level/.hidden.txt", text: "left out")
        let alone = try directory.write("alone.txt", text: "on its own")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let folder = directory.file("level")
        let report = try await coordinator.preload([.folder(folder), "\(alone)"])
        #expect(report.results.map(\.request.name) == ["\(folder)/b.txt", "\(folder)/sub/a.txt", alone], "sorted, in place of the folder")
        #expect(report.everythingLoaded && report.skippedPaths == ["\(folder)/notes.md"])
        #expect(coordinator.assets.asset(named: "\(folder)/sub/a.txt", as: TextAsset.self)?.text == "ay")

        let named = try PreloadCoordinator(plugins: [TextLoader()])
        _ = try await named.preload([.folder(folder + "/", name: "level1")])
        #expect(named.assets.names == ["level1/b.txt", "level1/sub/a.txt"], "the folder's name, then the path inside it")
        let bare = try PreloadCoordinator(plugins: [TextLoader()])
        _ = try await bare.preload([.folder(folder, name: "")])
        #expect(bare.assets.names == ["b.txt", "sub/a.txt"], "an empty name: the path inside the folder")
    }

    @Test func aFolderWithADamagedFileStillLoadsTheRest() async throws {
        try directory.write("mixed/good.txt", text: "fine")
        try directory.write("mixed/bad.txt", text: "FAIL")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload([.folder(directory.file("mixed"))])
        #expect(report.loaded.map(\.request.name) == [directory.file("mixed/good.txt")])
        #expect(report.failed.map(\.request.name) == [directory.file("mixed/bad.txt")])
    }

    @Test func aPlainRequestForAFolderSaysHowToAskForIt() async throws {
        try directory.write("plain/x.txt", text: "x")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload(["\(directory.file("plain"))"])
        let error = try #require(report.results.first?.outcome.error)
        #expect(error.reason.contains("AssetRequest.folder("), "\(error)")
    }

    @Test func dependenciesDoNotCrowdTheCallersViewButStayOneStepAway() async throws {
        try directory.write("x.txt", text: "ex")
        try directory.write("y.txt", text: "why")
        let bundle = try directory.write("both.bundle", text: "x.txt\ny.txt")
        let loaded = Recorder<String>()
        let coordinator = try PreloadCoordinator(plugins: [TextLoader(), BundleLoader(order: Recorder())])
        let report = try await coordinator.preload(
            [AssetRequest(path: bundle, name: "bundle")], hooks: PreloadHooks(onAssetLoaded: { loaded.append($0.request.name) }))
        #expect(report.results.count == 1 && report.loaded.count == 1 && report.allResults.count == 3)
        #expect(report.dependencies.map(\.request.path) == [directory.file("x.txt"), directory.file("y.txt")])
        #expect(loaded.all == ["bundle"], "an upload hook sees what the caller asked for")
        #expect(coordinator.assets.names == ["bundle"])
        #expect(coordinator.assets.dependencyNames == ["bundle#x.txt", "bundle#y.txt"], "named as parts of the bundle")
        #expect(coordinator.assets.asset(named: "bundle#x.txt", as: TextAsset.self)?.text == "ex", "still found by name")
        #expect(coordinator.assets.asset(named: directory.file("x.txt"), as: TextAsset.self)?.text == "ex", "and by path")

        var everything = PreloadHooks(onAssetLoaded: { loaded.append($0.request.name) })
        everything.includesDependencies = true
        let again = try PreloadCoordinator(plugins: [TextLoader(), BundleLoader(order: Recorder())])
        _ = try await again.preload([AssetRequest(path: bundle, name: "bundle")], hooks: everything)
        #expect(loaded.all.count == 1 + 3)
    }

    @Test func anAssetTheCallerAlsoAskedForIsTheCallers() async throws {
        let x = try directory.write("x.txt", text: "ex")
        try directory.write("y.txt", text: "why")
        let bundle = try directory.write("both.bundle", text: "x.txt\ny.txt")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader(), BundleLoader(order: Recorder())])
        _ = try await coordinator.preload(["\(x)", "\(bundle)"])
        #expect(coordinator.assets.names == [bundle, x])
        #expect(coordinator.assets.dependencyNames == [directory.file("y.txt")])
    }

    @Test @MainActor func mainActorHooksNeedNoAssumeIsolated() async throws {
        final class Bar {  // not Sendable: main-actor state, as a loading screen's would be
            var values: [Double] = []
            var loaded: [String] = []
            var done = false
        }
        let bar = Bar()
        for index in 0..<20 { try directory.write("m/\(index).txt", text: "\(index)") }
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload(
            [.folder(directory.file("m"))],
            hooks: .onMainActor(
                onProgress: { bar.values.append($0.fractionCompleted) },
                onAssetLoaded: { bar.loaded.append($0.request.name) },
                onCompletion: { _ in bar.done = true }))
        #expect(report.loaded.count == 20 && bar.loaded.count == 20 && bar.done)
        #expect(bar.values.last == 1.0 && bar.values == bar.values.sorted())
    }
}
