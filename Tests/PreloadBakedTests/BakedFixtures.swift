import Foundation
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadPack
import PreloadTestSupport

/// Baked packs made the way `preload bake` makes them: the sources loaded with every plugin,
/// then written by `BakeWriter`.
enum BakedFixtures {
    /// Every plugin the command registers.
    static func plugins(baked: BakedPackLoader = BakedPackLoader()) -> [any LoaderPlugin] {
        [PNGLoader(), AtlasLoader(), PackLoader(), AudioLoader(), baked, DataFileLoader.raw, DataFileLoader.json]
    }

    /// A coordinator with every plugin.
    static func coordinator(baked: BakedPackLoader = BakedPackLoader()) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: plugins(baked: baked))
    }

    /// Loads `requests` and bakes what loaded into `pack`; returns the loose report.
    @discardableResult
    static func bake(_ requests: [AssetRequest], to pack: String, flags: BakedFormat.Flags = []) async throws -> PreloadReport {
        let report = try await coordinator().preload(requests, options: PreloadOptions(storesAssets: false))
        try BakeWriter.write(report, to: pack, flags: flags)
        return report
    }

    /// A pack of `count` square noise textures of `side` pixels (`art/PREFIX-N.png`, each its own
    /// seed) baked at `directory`'s `level.bake`; returns the pack's path.
    static func noisePack(count: Int, side: Int, prefix: String, in directory: TemporaryDirectory) async throws -> String {
        var sources: [AssetRequest] = []
        for index in 0..<count {
            let pixels = PNGFixture.noise(width: side, height: side, seed: UInt64(index) + 1)
            let path = try directory.write("art/\(prefix)-\(index).png", PNGFixture.rgba(width: side, height: side, pixels: pixels))
            sources.append(AssetRequest(path: path, name: "art/\(prefix)-\(index).png"))
        }
        let pack = directory.file("level.bake")
        try await bake(sources, to: pack)
        return pack
    }

    /// What ``smallPack(in:)`` bakes.
    static func smallPackSources(in directory: TemporaryDirectory) -> [AssetRequest] {
        [.folder(directory.file("art"), name: "art"), AssetRequest(path: directory.file("art/notes.txt"), name: "art/notes.txt", plugin: "data")]
    }

    /// The repository's `sample-assets` folder.
    static let sampleAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets").path

    /// A small baked pack in `directory`: three PNG textures (`a.png` 2x2, `b.png` 3x1, `c.png`
    /// 1x1) baked from a folder `art` (entries named `art/...`), and a data file `art/notes.txt`.
    /// Returns the pack's path.
    static func smallPack(in directory: TemporaryDirectory) async throws -> String {
        try directory.write("art/a.png", PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 0x7F, count: 16)))
        try directory.write("art/b.png", PNGFixture.rgba(width: 3, height: 1, pixels: Array(0..<12)))
        try directory.write("art/c.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        try directory.write("art/notes.txt", text: "hello")
        let pack = directory.file("small.bake")
        try await bake(smallPackSources(in: directory), to: pack)
        return pack
    }
}
