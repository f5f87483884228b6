import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadPNG
import PreloadPack
import PreloadTileMap

/// The plugins these tests read manifests with: their settings readers read entries'
/// `"options"` (PreloadManifest knows none of them).
enum TestPlugins {
    /// PNG, audio, atlases, bitmap fonts, maps, packs and data files.
    static func registry() throws -> PluginRegistry {
        try PluginRegistry([
            PNGLoader(), AudioLoader(), AtlasLoader(), BitmapFontLoader(), TileMapLoader(), PackLoader(), DataFileLoader.raw, DataFileLoader.json,
        ])
    }
}
