import Foundation
import Testing

/// Baked packs' table of kinds is open (issue 49): the bake writer and the baked-pack plugin hold
/// no code of their own for any kind. Each kind writes and reads its own entry
/// (`BakeableAsset`, in its folder), and a container is baked as its entries because its type
/// is a `ContainerAsset` (a `.pak`, a third party's zip); this fails when one of them names a
/// kind's type again.
///
/// The same check by hand (and in `.ci/kind-hubs`):
/// `grep -nE '\b(TextureAtlas|BitmapFont|TileMap|Sound|Music|PackAsset)\b|import Preload(Atlas|Font|TileMap|Audio)' Plugins/Baked/*.swift Sources/PreloadAuthoring/Bake*.swift`
/// (doc comments aside: their examples register the plugins a game would).
@Suite struct BakedKindHubTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files that must hold no kind's code: every Swift file of the baked-pack plugin and the
    /// writer's (PreloadAuthoring's `Bake*.swift`).
    static var hubFiles: [String] {
        func swiftFiles(in folder: String, named prefix: String = "") -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
        }
        return swiftFiles(in: "Plugins/Baked") + swiftFiles(in: "Sources/PreloadAuthoring", named: "Bake")
    }

    static let kindCode =
        #"\b(TextureAtlas|AtlasPage|BitmapFont|FontPage|TileMap|Sound|Music|PackAsset|BakedAtlasTable|BakedFont|BakedMap|BakedAudio)\b|import Preload(Atlas|Font|TileMap|Audio|TrueType)\b"#

    @Test func theWriterAndTheLoaderNameNoKindsType() throws {
        #expect(Self.hubFiles.count >= 11 && Self.hubFiles.contains("Sources/PreloadAuthoring/BakeWriter.swift"), "\(Self.hubFiles)")
        let kindCode = try Regex(Self.kindCode)
        var found: [String] = []
        for file in Self.hubFiles {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.contains(kindCode) else { continue }
                found.append("\(file):\(number + 1): \(code)")
            }
        }
        #expect(found.isEmpty, "per-kind code in the bake hub:\n\(found.joined(separator: "\n"))")
    }
}
