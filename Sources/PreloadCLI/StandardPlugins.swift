import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadAudio
import PreloadBaked
import PreloadFont
import PreloadJPEG
import PreloadKTX2
import PreloadPNG
import PreloadPack
import PreloadQOI
import PreloadTileMap
import PreloadTrueType
import PreloadWebP

/// The plugins every subcommand that loads registers: PNG, JPEG, WebP, QOI, KTX2, audio, Aseprite exports, atlases,
/// bitmap and TrueType fonts, Tiled maps, Aseprite animations, APNG animations, animated WebPs (when named), GIFs, packs, baked packs and data files, in that
/// order.
enum StandardPlugins {
    /// A registry of the standard plugins, with these PNG, pack, baked-pack and audio loaders; without
    /// a baked-pack loader (`baked: nil`, what `bake` reads its sources with), a `.bake` file is
    /// claimed by nobody, so a pack baked into its own source folder is not baked again.
    static func registry(
        png: PNGLoader, pack: PackLoader = PackLoader(), baked: BakedPackLoader? = BakedPackLoader(), audio: AudioLoader = AudioLoader()
    ) throws -> PluginRegistry {
        try PluginRegistry(plugins(png: png, pack: pack, baked: baked, audio: audio))
    }

    /// The standard plugins, in registration order (``registry(png:pack:baked:audio:)``'s).
    static func plugins(
        png: PNGLoader = PNGLoader(), pack: PackLoader = PackLoader(), baked: BakedPackLoader? = BakedPackLoader(),
        audio: AudioLoader = AudioLoader()
    ) -> [any LoaderPlugin] {
        [
            png, JPEGLoader(), WebPLoader(), QOILoader(), KTX2Loader(), audio, AsepriteSheetLoader(), AtlasLoader(), BitmapFontLoader(),
            TrueTypeFontLoader(), TileMapLoader(), AsepriteLoader(), APNGLoader(), AnimatedWebPLoader(), GIFLoader(), pack,
        ]
            + (baked.map { [$0] } ?? [])
            + [DataFileLoader.raw, DataFileLoader.json]
    }

    /// The standard plugins, each with the file extensions it claims, for `preload --help`:
    /// `png (.png), jpeg (.jpeg .jpg), ..., data (when named)`: a plugin that claims no
    /// extension loads what its content gives it (`by content`, a plugin that sniffs) or what a
    /// request names it for (`when named`, a manifest entry's `"plugin"`). Read from the
    /// plugins, not a registry, and only when help is asked for (``HelpRequest``): the root
    /// command's configuration is made at every start of a subcommand.
    static var listing: String {
        plugins().map { plugin in
            let extensions = plugin.fileExtensions.sorted().map { "." + $0 }.joined(separator: " ")
            let claim = plugin.headerLength > 0 ? "by content" : "when named"
            return "\(plugin.identifier) (\(extensions.isEmpty ? claim : extensions))"
        }.joined(separator: ", ")
    }
}
