import Preload
import PreloadConcurrency
import Testing

/// A registry asks its ``BakingPlugin``s for their baked types only when an entry of a kind that
/// is not core's is looked up: making the registry, and reading textures and data, ask none
/// (telling a baking plugin from another is a dynamic cast, a scan of every conformance the
/// first time: docs/benchmarks.md, "Issue 50: start-up").
@Suite struct BakedKindsTests {
    @Test func pluginsAreAskedOnlyForAKindThatIsNotCores() throws {
        let asked = Locked(0)
        let registry = try PluginRegistry([PaletteLoader(asked: asked), OtherPaletteLoader()])
        let kinds = registry.bakedKinds
        #expect(kinds.type(ofKind: "texture") == Texture.self && kinds.type(ofKind: Texture.gpuKind) == Texture.self)
        #expect(kinds.type(ofKind: "data") == DataAsset.self)
        #expect(asked.withLock { $0 } == 0, "core's kinds are known without asking a plugin")

        #expect(kinds.type(ofKind: "palette") == Palette.self, "the first registered claim of a name wins")
        #expect(kinds.type(ofKind: "ramp") == Ramp.self)
        #expect(kinds.type(ofKind: "nothing") == nil)
        let copy = kinds
        #expect(copy.names == ["data", Texture.gpuKind, "palette", "ramp", "texture"])
        #expect(asked.withLock { $0 } == 1, "asked once, for every copy of the table")
    }

    @Test func coreAloneKnowsCoresKinds() {
        #expect(BakedKinds().names == ["data", Texture.gpuKind, "texture"])
        #expect(BakedKinds(plugins: []).type(ofKind: "palette") == nil)
    }
}

/// Colours, four bytes each.
private struct Palette: BakeableAsset {
    var colors: AssetBytes
    var kind: AssetKind { "palette" }
    var byteCount: Int { colors.count }

    static var bakedKind: String { "palette" }
    func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: colors) }
    static func unbaked(from entry: BakedEntryContents) throws -> any Asset { Palette(colors: entry.bytes) }
}

/// A second type claiming "palette" (registered later: it loses the name) and "ramp".
private struct Ramp: BakeableAsset {
    var colors: AssetBytes
    var kind: AssetKind { "ramp" }
    var byteCount: Int { colors.count }

    static var bakedKind: String { "ramp" }
    static var otherBakedKinds: [String] { ["palette"] }
    func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: colors) }
    static func unbaked(from entry: BakedEntryContents) throws -> any Asset { Ramp(colors: entry.bytes) }
}

/// Counts how often it is asked for its baked types.
private struct PaletteLoader: BakingPlugin {
    let asked: Locked<Int>
    var identifier: String { "palette" }
    var assetKind: AssetKind { "palette" }
    var fileExtensions: Set<String> { ["pal"] }
    var bakedAssetTypes: [any BakeableAsset.Type] {
        asked.withLock { $0 += 1 }
        return [Palette.self]
    }

    func load(_ context: LoadContext) throws -> any Asset { Palette(colors: try context.readContents()) }
}

private struct OtherPaletteLoader: BakingPlugin {
    var identifier: String { "ramp" }
    var assetKind: AssetKind { "ramp" }
    var fileExtensions: Set<String> { ["ramp"] }
    var bakedAssetTypes: [any BakeableAsset.Type] { [Ramp.self] }

    func load(_ context: LoadContext) throws -> any Asset { Ramp(colors: try context.readContents()) }
}
