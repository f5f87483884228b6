import Foundation
import PreloadTestSupport
import Testing

@testable import Preload

/// Loads `.keep` files as ``TextAsset``, keeping every context it is given, with the path it
/// loaded through it: a plugin may hold its context after it returns (to read it later).
struct KeepingLoader: LoaderPlugin {
    var identifier: String { "keep" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["keep"] }
    let kept = Recorder<KeptContext>()

    struct KeptContext: Sendable {
        let path: String
        let context: LoadContext
    }

    func load(_ context: LoadContext) throws -> any Asset {
        kept.append(KeptContext(path: context.request.path, context: context))
        return TextAsset(text: String(decoding: try context.readContents(), as: UTF8.self))
    }
}

/// A load of many small files passes its context on from one file to the next only when the
/// plugin kept no reference to it (``LoadContext/reused(_:for:asset:environment:contents:dependencies:note:)``);
/// what a file's plugin reported does not follow the context (`BatchRecordsTests` checks
/// warnings of every entry of a large batch with interleaved warning files).
@Suite struct LoadContextReuseTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aContextItsPluginKeptStillLoadsItsOwnFile() async throws {
        let paths = try (0..<200).map { try directory.write("\($0).keep", text: "file \($0)") }
        let plugin = KeepingLoader()
        let coordinator = try PreloadCoordinator(plugins: [plugin], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        #expect(report.results.outcomeCounts.loaded == paths.count)
        let kept = plugin.kept.all
        #expect(kept.count == paths.count)
        for entry in kept {
            #expect(entry.context.request.path == entry.path)
            let index = try #require(paths.firstIndex(of: entry.path))
            #expect(String(decoding: try entry.context.readContents(), as: UTF8.self) == "file \(index)")
        }
    }

    @Test func aContextNoOneKeptIsPassedOnWithNothingOfTheFileBefore() async throws {
        // Every other file warns; the plain ones after a warning one (in the same load) have none.
        let paths = try (0..<200).map { try directory.write("\($0).note", text: $0 % 2 == 0 ? "WARN \($0)" : "plain \($0)") }
        let coordinator = try PreloadCoordinator(plugins: [NoteLoader()], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        for (index, result) in report.results.enumerated() {
            #expect(result.outcome.isLoaded)
            #expect(result.warnings.count == (index % 2 == 0 ? 2 : 0), "\(result.request.path)")
            let text = (result.outcome.asset as? TextAsset)?.text
            #expect(text?.hasSuffix(" \(index)") == true)
        }
    }
}
