import Foundation
import Testing

/// Baked packs' table of kinds is open (issue 49): the bake writer and the baked-pack plugin hold
/// no code of their own for any kind. Each kind writes and reads its own entry
/// (`BakeableAsset`, in its folder); this fails when one of them names a kind's type again.
///
/// The same check by hand:
/// `grep -nE '\b(TextureAtlas|BitmapFont|TileMap|Sound|Music)\b|import Preload(Atlas|Font|TileMap|Audio)' Plugins/Baked/*.swift Sources/PreloadAuthoring/Bake{Writer,Plan,Summary}.swift`
/// (doc comments aside: their examples register the plugins a game would).
@Suite struct BakedKindHubTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files that must hold no kind's code: every Swift file of the baked-pack plugin and the writer's.
    static var hubFiles: [String] {
        let baked = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Plugins/Baked").path)) ?? []
        return baked.filter { $0.hasSuffix(".swift") }.map { "Plugins/Baked/" + $0 }
            + ["BakeWriter", "BakePlan", "BakeSummary"].map { "Sources/PreloadAuthoring/\($0).swift" }
    }

    static let kindCode =
        #"\b(TextureAtlas|AtlasPage|BitmapFont|FontPage|TileMap|Sound|Music|BakedAtlasTable|BakedFont|BakedMap|BakedAudio)\b|import Preload(Atlas|Font|TileMap|Audio|TrueType)\b"#

    @Test func theWriterAndTheLoaderNameNoKindsType() throws {
        #expect(Self.hubFiles.count >= 9, "\(Self.hubFiles)")
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
