// swift-tools-version: 6.1
import PackageDescription

/// Preload: asset preloading for Swift games on Linux.
///
/// Layout (one module per concept, one library product each, plus the `Preload` umbrella):
/// - `Sources/Preload`: the core: requests, assets, the plugin API, the loading engine, the
///   store and its memory, file access. Pure Swift.
/// - `Sources/PreloadConcurrency`: the lock, once-only and forward-only helpers every module uses.
/// - `Sources/PreloadFlow`: game-flow tools on top of the core (`Sequencer`, `StageChain`,
///   `StateMachine`, `LoadingState`).
/// - `Sources/PreloadManifest`: levels as data: manifests of named asset groups, loaded and
///   unloaded with reference counts (`AssetGroups`).
/// - `Sources/PreloadAuthoring`: tools that write assets (PNG encoder, pack writer, atlas writer
///   and checker, atomic files); the command and tests use them, a game does not need them.
/// - `Plugins/<Name>`: loader plugins, one library module each. These are *loader* plugins, not
///   SwiftPM package plugins; each target names its folder with an explicit `path:`.
/// - `Sources/PreloadZlib`: the one inflate (and zlib compression) over the system zlib, public;
///   whole buffers through libdeflate (opened at run time, its one loader) where the system has it.
/// - `Sources/CLibPNG`, `Sources/CPreloadZlib`, `Sources/CFreeType`: system libraries found with
///   pkg-config.
/// - `Sources/CPreloadPNG`: the C shim that owns libpng's `setjmp`/`longjmp` error handling.
/// - `Sources/CPreloadCRC`: CRC-32 by carry-less multiplication where the CPU has it (zlib's
///   `crc32` does the rest).
/// - `Sources/PreloadCLI`: the `preload` command.
let package = Package(
    name: "Preload",
    platforms: [.macOS(.v15)],
    products: [
        // The umbrella, today's one-line dependency: the core, the PNG, atlas, pack and baked-pack
        // plugins, game flow and manifests (every other plugin is a product of its own).
        .library(
            name: "Preload",
            targets: ["Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadBaked", "PreloadFlow", "PreloadManifest"]),
        // One product per module, for an engine that wants only some (its own loaders without
        // libpng and zlib, say).
        .library(name: "PreloadCore", targets: ["Preload"]),
        .library(name: "PreloadPNG", targets: ["PreloadPNG"]),
        .library(name: "PreloadAtlas", targets: ["PreloadAtlas"]),
        .library(name: "PreloadPack", targets: ["PreloadPack"]),
        .library(name: "PreloadBaked", targets: ["PreloadBaked"]),
        // The one inflate (zlib, raw deflate, gzip) over the system zlib, for packs, Tiled's
        // layers and any plugin that reads compressed data; whole zlib buffers through libdeflate.
        .library(name: "PreloadZlib", targets: ["PreloadZlib"]),
        // Codecs beyond PNG: not in the umbrella, so that a game links libjpeg, or opens libwebp
        // at run time, only when it names the product.
        .library(name: "PreloadJPEG", targets: ["PreloadJPEG"]),
        .library(name: "PreloadWebP", targets: ["PreloadWebP"]),
        .library(name: "PreloadQOI", targets: ["PreloadQOI"]),
        // Animated sprites: Aseprite files into frames, durations and tags.
        .library(name: "PreloadAnimation", targets: ["PreloadAnimation"]),
        // Sounds and music: WAV read by the plugin, the rest through libraries opened at run time.
        .library(name: "PreloadAudio", targets: ["PreloadAudio"]),
        // Bitmap fonts (AngelCode BMFont: text, XML, binary).
        .library(name: "PreloadFont", targets: ["PreloadFont"]),
        // XML for plugins: libxml2's SAX2 parser, opened at run time.
        .library(name: "PreloadXML", targets: ["PreloadXML"]),
        // TrueType and OpenType fonts rasterized at load into bitmap fonts: links FreeType, so
        // only a game that names it does.
        .library(name: "PreloadTrueType", targets: ["PreloadTrueType"]),
        // Tiled maps (TMX, TMJ) and their tilesets; the images load with the image plugins.
        .library(name: "PreloadTileMap", targets: ["PreloadTileMap"]),
        // Remote files: downloads into a cache with resume, retries and integrity checks
        // (libcurl, opened at run time: nothing linked).
        .library(name: "PreloadRemote", targets: ["PreloadRemote"]),
        // GPU texture formats: block encoders and decoders (BC7 our own; ASTC and BC1-BC5 through
        // libraries opened at run time), mipmap chains, quality measures, KTX2 files.
        .library(name: "PreloadGPU", targets: ["PreloadGPU"]),
        // KTX2 files (Khronos' GPU texture container) loaded as textures: every level, block
        // formats, Zstandard supercompression. Reads them with PreloadGPU's `KTX2File`.
        .library(name: "PreloadKTX2", targets: ["PreloadKTX2"]),
        .library(name: "PreloadFlow", targets: ["PreloadFlow"]),
        .library(name: "PreloadManifest", targets: ["PreloadManifest"]),
        .library(name: "PreloadAuthoring", targets: ["PreloadAuthoring"]),
        // Test doubles for plugin authors: a recorder hooks can feed, temporary folders, a gated
        // plugin, PNG and zip fixtures (what the package's own tests use).
        .library(name: "PreloadTestSupport", targets: ["PreloadTestSupport"]),
        // A test tool, like PreloadTestSupport: a headless OpenGL context (EGL, Mesa's llvmpipe
        // where there is no GPU) that uploads textures and reads their levels back, for tests, the
        // benchmark package and the SDL example's checks (other packages see products only).
        .library(name: "PreloadGLReadback", targets: ["PreloadGLReadback"]),
        .executable(name: "preload", targets: ["PreloadCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalogs beside each module.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CPreloadZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]
        ),
        // FreeType, linked by PreloadTrueType alone (docs/architecture.md, "System libraries").
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
        ),
        .target(name: "CPreloadPNG", dependencies: ["CLibPNG"]),
        .target(name: "CPreloadJPEG", dependencies: ["CLibJPEG"]),
        // libwebp's decoder types only: the plugin opens libwebp.so.7 at run time (SystemLibrary),
        // so the package builds without libwebp's headers.
        .target(name: "CPreloadWebP"),
        // giflib's decoding types and a memory reader: PreloadAnimation opens libgif.so.7 at run
        // time (SystemLibrary), so the package builds without giflib's headers.
        .target(name: "CPreloadGIF"),
        // libsndfile's, libvorbisfile's and libmpg123's types and memory readers: the plugin opens
        // those libraries at run time, so the package builds without their headers.
        .target(name: "CPreloadAudio"),
        .target(name: "CPreloadCRC"),
        // libcurl's easy interface for PreloadRemote: opened at run time (libcurl.so.4), its
        // variadic setopt called from C.
        .target(name: "CPreloadCurl"),
        // astcenc 4.2's types for PreloadGPU's ASTC encoder and decoder: opened at run time
        // (libastcenc.so.3d), so the package builds without astcenc's headers.
        .target(name: "CPreloadASTC"),
        .target(name: "PreloadConcurrency"),
        .target(name: "PreloadZlib", dependencies: ["CPreloadZlib", "Preload", "PreloadConcurrency"]),
        .target(
            name: "Preload",
            dependencies: ["PreloadConcurrency", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "PreloadFlow", dependencies: ["Preload", "PreloadConcurrency"]),
        .target(name: "PreloadGPU", dependencies: ["Preload", "PreloadConcurrency", "CPreloadASTC"]),
        .target(
            name: "PreloadRemote",
            // PreloadBaked for the pack updater (PackUpdater: a cached pack patched entry by entry).
            dependencies: ["Preload", "PreloadConcurrency", "PreloadBaked", "CPreloadCurl"]),
        .target(
            name: "PreloadManifest",
            // The core alone: plugins give their settings readers (ConfigurablePlugin); no plugin module is imported.
            dependencies: ["Preload", "PreloadConcurrency"]),
        .target(
            name: "PreloadAuthoring",
            dependencies: [
                "Preload", "PreloadConcurrency", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadBaked", "PreloadAudio", "PreloadFont",
                "PreloadTileMap", "PreloadGPU", "PreloadZlib", "CPreloadPNG",
            ]
        ),
        .target(
            name: "PreloadPNG",
            dependencies: ["Preload", "PreloadConcurrency", "PreloadZlib", "CPreloadPNG"],
            path: "Plugins/PNG"
        ),
        .target(
            name: "PreloadAtlas",
            dependencies: ["Preload", "PreloadConcurrency", "PreloadPNG"],
            path: "Plugins/Atlas"
        ),
        .target(
            name: "PreloadPack",
            dependencies: ["Preload", "PreloadConcurrency", "PreloadZlib", "CPreloadCRC"],
            path: "Plugins/Pack"
        ),
        .target(
            name: "PreloadJPEG",
            dependencies: ["Preload", "PreloadConcurrency", "CPreloadJPEG"],
            path: "Plugins/JPEG"
        ),
        .target(
            name: "PreloadWebP",
            dependencies: ["Preload", "PreloadConcurrency", "CPreloadWebP"],
            path: "Plugins/WebP"
        ),
        .target(
            name: "PreloadQOI",
            dependencies: ["Preload", "PreloadConcurrency"],
            path: "Plugins/QOI"
        ),
        .target(
            name: "PreloadAnimation",
            dependencies: ["Preload", "PreloadAtlas", "PreloadPNG", "PreloadZlib", "PreloadWebP", "CPreloadGIF"],
            path: "Plugins/Animation"
        ),
        .target(
            name: "PreloadAudio",
            dependencies: ["Preload", "PreloadConcurrency", "CPreloadAudio"],
            path: "Plugins/Audio"
        ),
        // libxml2's SAX2 handler and error record: PreloadXML opens libxml2 at run time.
        .target(name: "CPreloadXML"),
        .target(name: "PreloadXML", dependencies: ["Preload", "CPreloadXML"]),
        .target(
            name: "PreloadFont",
            dependencies: ["Preload", "PreloadConcurrency", "PreloadXML"],
            path: "Plugins/Font"
        ),
        .target(
            name: "PreloadTrueType",
            dependencies: ["Preload", "PreloadFont", "PreloadAtlas", "CFreeType"],
            path: "Plugins/TrueType"
        ),
        .target(
            name: "PreloadTileMap",
            dependencies: ["Preload", "PreloadXML", "PreloadZlib"],
            path: "Plugins/TileMap"
        ),
        .target(
            name: "PreloadBaked",
            // Preload alone for its kinds (each kind reads its own entries: BakeableAsset); PreloadPack for CRC32.
            dependencies: ["Preload", "PreloadConcurrency", "PreloadPack"],
            path: "Plugins/Baked"
        ),
        .target(
            name: "PreloadKTX2",
            dependencies: ["Preload", "PreloadGPU"],
            path: "Plugins/KTX2"
        ),
        .executableTarget(
            name: "PreloadCLI",
            dependencies: [
                "Preload", "PreloadConcurrency", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadBaked", "PreloadManifest",
                "PreloadAuthoring", "PreloadJPEG", "PreloadWebP", "PreloadQOI", "PreloadAudio", "PreloadFont", "PreloadTrueType",
                "PreloadTileMap", "PreloadRemote", "PreloadKTX2", "PreloadAnimation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/PreloadCLI"
        ),
        .executableTarget(
            name: "game-boot",
            dependencies: ["Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadFlow"],
            path: "Sources/game-boot"
        ),
        // EGL's and GL's few numbers and the upload and read-back calls, in C: libEGL.so.1 is
        // opened at run time (nothing linked, no GL headers needed to build).
        .target(name: "CPreloadGLReadback", path: "Tests/CPreloadGLReadback"),
        .target(
            name: "PreloadGLReadback",
            dependencies: ["CPreloadGLReadback", "Preload", "PreloadConcurrency", "PreloadGPU"],
            path: "Tests/PreloadGLReadback"
        ),
        .target(
            name: "PreloadTestSupport",
            dependencies: ["CPreloadZlib", "Preload", "PreloadConcurrency", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support"
        ),
        .testTarget(name: "PreloadTests", dependencies: ["Preload", "PreloadFlow", "PreloadConcurrency", "PreloadTestSupport"]),
        .testTarget(
            name: "PreloadManifestTests",
            dependencies: [
                "PreloadManifest", "Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadAudio", "PreloadFont", "PreloadTileMap",
                "PreloadTestSupport",
            ]
        ),
        .testTarget(
            name: "PreloadPNGTests",
            dependencies: ["PreloadPNG", "Preload", "PreloadAuthoring", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadAtlasTests",
            dependencies: ["PreloadAtlas", "PreloadPNG", "Preload", "PreloadAuthoring", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadPackTests",
            dependencies: [
                "PreloadPack", "PreloadPNG", "PreloadAtlas", "Preload", "PreloadAuthoring", "PreloadConcurrency", "PreloadTestSupport",
                "PreloadZlib", "CPreloadZlib",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadJPEGTests",
            dependencies: ["PreloadJPEG", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadWebPTests",
            dependencies: ["PreloadWebP", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadQOITests",
            dependencies: ["PreloadQOI", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadAnimationTests",
            dependencies: [
                "PreloadAnimation", "PreloadAtlas", "PreloadPNG", "PreloadWebP", "PreloadManifest", "Preload", "PreloadZlib", "PreloadBaked",
                "PreloadAuthoring",
                "PreloadGPU", "PreloadTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadAudioTests",
            dependencies: ["PreloadAudio", "PreloadPack", "Preload", "PreloadRemote", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadGPUTests",
            dependencies: ["PreloadGPU", "Preload", "PreloadPNG", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadGLReadbackTests",
            dependencies: ["PreloadGLReadback", "PreloadGPU", "Preload", "PreloadPNG", "PreloadBaked", "PreloadAuthoring", "PreloadTestSupport"]),
        .testTarget(name: "PreloadXMLTests", dependencies: ["PreloadXML", "Preload"]),
        .testTarget(
            name: "PreloadRemoteTests",
            dependencies: [
                "PreloadRemote", "PreloadCLI", "Preload", "PreloadPNG", "PreloadAtlas", "PreloadBaked", "PreloadPack", "PreloadManifest",
                "PreloadAuthoring", "PreloadTestSupport",
            ],
            exclude: ["Servers/fault_server.py"]),
        .testTarget(
            name: "PreloadFontTests",
            dependencies: ["PreloadFont", "PreloadPNG", "PreloadPack", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadTrueTypeTests",
            dependencies: [
                "PreloadTrueType", "PreloadFont", "PreloadManifest", "Preload", "PreloadRemote", "PreloadTestSupport",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadTileMapTests",
            dependencies: ["PreloadTileMap", "PreloadPNG", "PreloadPack", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadBakedTests",
            dependencies: [
                "PreloadBaked", "PreloadPNG", "PreloadAtlas", "PreloadPack", "PreloadAudio", "PreloadFont", "PreloadTileMap", "Preload",
                "PreloadAuthoring", "PreloadConcurrency", "PreloadTestSupport", "PreloadGPU",
            ]
        ),
        .testTarget(
            name: "PreloadKTX2Tests",
            dependencies: ["PreloadKTX2", "PreloadGPU", "Preload", "PreloadPNG", "PreloadAuthoring", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadCLITests",
            dependencies: [
                "PreloadCLI", "game-boot", "PreloadRemote", "PreloadTestSupport", "Preload", "PreloadAuthoring", "PreloadPNG", "PreloadPack",
                "PreloadBaked",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
