import Preload
import PreloadTestSupport
import Testing

/// A third party's plugin tested the way Preload tests its own: real files in a temporary
/// folder, hooks feeding a recorder the test waits on, and a gated load to cancel mid-way.
@Suite struct PluginTestingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("text-loader-tests")
    }

    @Test func eachFileLoadsOrFailsByNameAndTheHooksSeeEveryOne() async throws {
        let good = try directory.write("levels/one.txt", text: "first level")
        let bad = try directory.write("levels/two.txt", [0xFF, 0xFE])  // not UTF-8
        let seen = Recorder<AssetResult>()
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload(
            [.folder(directory.file("levels"), name: "levels")],
            hooks: PreloadHooks(onAssetLoaded: { seen.append($0) }, onAssetFailed: { seen.append($0) }))
        #expect(await seen.wait(forCount: 2), "a hook for each file")
        #expect(report.loaded.map(\.request.path) == [good])
        #expect(report.errors.map(\.description) == ["\(bad): not UTF-8 text"])
        #expect((coordinator.assets.asset(named: "levels/one.txt") as? TextFile)?.text == "first level")
    }

    @Test func aLoadHeldAtAGateIsCancelledByName() async throws {
        let path = try directory.write("long.txt", text: "a long load")
        let gate = Gate()
        let coordinator = try PreloadCoordinator(plugins: [GatedLoader(TextLoader(), gate: gate)])
        let batch = coordinator.preload([AssetRequest(path: path)]) { _ in }
        #expect(await gate.started.waitWithoutBlocking(seconds: 120), "the load started and is held")
        batch.cancel()
        gate.release()  // opened right after the cancel: the load still ends cancelled
        let report = try await batch.finished()
        #expect(report.cancelled.map(\.request.path) == [path] && report.loaded.isEmpty)
    }
}
