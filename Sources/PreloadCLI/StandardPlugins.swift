import Preload
import PreloadAtlas
import PreloadBaked
import PreloadJPEG
import PreloadPNG
import PreloadPack
import PreloadQOI
import PreloadWebP

/// The plugins every subcommand that loads registers: PNG, JPEG, WebP, QOI, atlases, packs,
/// baked packs and data files, in that order.
enum StandardPlugins {
    /// A registry of the standard plugins, with these PNG, pack and baked-pack loaders; without
    /// a baked-pack loader (`baked: nil`, what `bake` reads its sources with), a `.bake` file is
    /// claimed by nobody, so a pack baked into its own source folder is not baked again.
    static func registry(
        png: PNGLoader, pack: PackLoader = PackLoader(), baked: BakedPackLoader? = BakedPackLoader()
    ) throws -> PluginRegistry {
        try PluginRegistry(
            [png, JPEGLoader(), WebPLoader(), QOILoader(), AtlasLoader(), pack] + (baked.map { [$0] } ?? [])
                + [DataFileLoader.raw, DataFileLoader.json])
    }
}
