// swift-tools-version: 6.1
import PackageDescription

/// Preload: asset preloading for Swift games on Linux.
///
/// Layout:
/// - `Sources/Preload`: the core (operations, plugin registry, coordinator, asset store). Pure Swift.
/// - `Plugins/<Name>`: loader plugins, one library module each. These are *loader* plugins, not
///   SwiftPM package plugins; each target names its folder with an explicit `path:`.
/// - `Sources/CLibPNG`, `Sources/CPreloadZlib`: system libraries found with pkg-config.
/// - `Sources/CPreloadPNG`: the C shim that owns libpng's `setjmp`/`longjmp` error handling.
/// - `Sources/CPreloadCRC`: CRC-32 by carry-less multiplication where the CPU has it (zlib's
///   `crc32` does the rest).
/// - `Sources/preload`: the `preload` command.
let package = Package(
    name: "Preload",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Preload", targets: ["Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack"]),
        .executable(name: "preload", targets: ["PreloadCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
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
        .target(name: "CPreloadPNG", dependencies: ["CLibPNG"]),
        .target(name: "CPreloadCRC"),
        .target(
            name: "Preload",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "PreloadPNG",
            dependencies: ["Preload", "CPreloadPNG"],
            path: "Plugins/PNG"
        ),
        .target(
            name: "PreloadAtlas",
            dependencies: ["Preload", "PreloadPNG"],
            path: "Plugins/Atlas"
        ),
        .target(
            name: "PreloadPack",
            dependencies: ["Preload", "CPreloadZlib", "CPreloadCRC"],
            path: "Plugins/Pack"
        ),
        .executableTarget(
            name: "PreloadCLI",
            dependencies: [
                "Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/preload"
        ),
        .executableTarget(
            name: "game-boot",
            dependencies: ["Preload", "PreloadPNG", "PreloadAtlas", "PreloadPack"],
            path: "Sources/game-boot"
        ),
        .target(
            name: "PreloadTestSupport",
            dependencies: ["CPreloadZlib", "Preload"],
            path: "Tests/Support"
        ),
        .testTarget(name: "PreloadTests", dependencies: ["Preload", "PreloadTestSupport"]),
        .testTarget(
            name: "PreloadPNGTests",
            dependencies: ["PreloadPNG", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadAtlasTests",
            dependencies: ["PreloadAtlas", "PreloadPNG", "Preload", "PreloadTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadPackTests",
            dependencies: ["PreloadPack", "PreloadPNG", "PreloadAtlas", "Preload", "PreloadTestSupport", "CPreloadZlib"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PreloadCLITests",
            dependencies: [
                "PreloadCLI", "game-boot", "PreloadTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
