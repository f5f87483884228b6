import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadPack
import Testing

/// A third party's plugin, written against the public API only: `.txt` files as text.
struct TextFile: Asset {
    let text: String
    var kind: AssetKind { "text" }
    var byteCount: Int { text.utf8.count }
}

struct TextLoader: LoaderPlugin {
    var identifier: String { "text" }
    var assetKind: AssetKind { "text" }
    var fileExtensions: Set<String> { ["txt"] }

    func load(_ context: LoadContext) throws -> any Asset {
        let bytes = try context.readContents()
        guard let text = String(validating: bytes.array, as: UTF8.self) else {
            throw AssetError(path: context.request.path, category: .corrupt, reason: "not UTF-8 text")
        }
        return TextFile(text: text)
    }
}

/// The main-actor state a loading screen would have.
@MainActor final class LoadingScreen {
    var fractions: [Double] = []
    var uploaded: [String] = []
}

/// The ten-minute path from the README and the getting-started article, as a user's package
/// runs it: only `import Preload...` of the public products.
@Suite struct TenMinutePathTests {
    /// The repository's sample assets, from this file's place in it.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-assets").path

    @Test @MainActor func aFolderPreloadsWithProgressOnTheMainActor() async throws {
        let screen = LoadingScreen()
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let report = try await coordinator.preload(
            [.folder(Self.samples, name: "assets")],
            hooks: .onMainActor(
                onProgress: { screen.fractions.append($0.fractionCompleted) },
                onAssetLoaded: { screen.uploaded.append($0.request.name) }))
        // 15 results: the walk found ui.png too, but it is the ui atlas's page, listed under it; the
        // font's and the map's images load as textures of their own (these plugins read neither).
        #expect(report.everythingLoaded && report.loaded.count == 15 && report.results.count == 15)
        #expect(screen.fractions.last == 1 && screen.fractions == screen.fractions.sorted())
        #expect(screen.uploaded.count == 15, "the caller's requests, not their pages and entries again")
        #expect(screen.uploaded.allSatisfy { $0.hasPrefix("assets/") })
    }

    @Test func theStoreAnswersToTheCallersNames() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        _ = try await coordinator.preload([.folder(Self.samples, name: "assets")])
        // 16 names: the store holds the ui atlas's page under its own name too.
        #expect(coordinator.assets.names.count == 16 && coordinator.assets.names.allSatisfy { $0.hasPrefix("assets/") })
        let hero = try #require(coordinator.assets.texture(named: "assets/sprites/hero.png"))
        #expect(hero.width == 64 && hero.height == 64 && hero.pixelFormat == .rgba8)
        let creatures = try #require(coordinator.assets.asset(named: "assets/atlases/creatures.atlas", as: TextureAtlas.self))
        #expect(creatures.frame(named: "bat.png") != nil)
        let hud = try #require(coordinator.assets.texture(named: "assets/packs/level1.pak#hud/hud.png"))
        #expect(hud.width > 0)
        #expect(coordinator.assets.dependencyNames.contains("assets/packs/level1.pak#hud/hud.png"))
    }

    @Test func aThirdPartyPluginLoadsItsFilesAndFailsByName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("user-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: folder + "/greeting.txt"))
        try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: folder + "/broken.txt"))
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload(["\(folder)/greeting.txt", "\(folder)/broken.txt"])
        #expect(coordinator.assets.asset(named: "\(folder)/greeting.txt", as: TextFile.self)?.text == "hello")
        let error = try #require(report.failed.first?.outcome.error)
        #expect(error.path == "\(folder)/broken.txt" && error.category == .corrupt && error.reason == "not UTF-8 text")
    }

    @Test func cancellingTheTaskKeepsThePartialReport() async throws {
        let coordinator = try PreloadCoordinator(
            plugins: [PNGLoader(), AtlasLoader(), PackLoader()], configuration: .init(maxConcurrentLoads: 1))
        let requests = (0..<200).map { AssetRequest(path: Self.samples + "/backgrounds/forest.png", name: "copy \($0)") }
        let task = Task { try await coordinator.preload(requests) }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled preload must throw")
        } catch let cancelled as PreloadCancelled {
            #expect(cancelled.report.wasCancelled && cancelled.report.results.count == 200)
            #expect(cancelled.report.loaded.count + cancelled.report.cancelled.count == 200)
            for result in cancelled.report.loaded { #expect(coordinator.assets.texture(named: result.request.name) != nil) }
        }
    }
}
