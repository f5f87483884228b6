// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

/// Benchmarks for Preload, kept out of the main package so users never build them.
///
///     swift run -c release --package-path Benchmarks preload-bench CORPUS_DIR --jobs 2
///     swift run -c release --package-path Benchmarks pack-bench CORPUS_DIR --jobs 2
///     swift run -c release --package-path Benchmarks pack-patch-bench OLD.bake NEW.bake WORK_DIR --rounds 7
///     swift run -c release --package-path Benchmarks dedupe-bench /tmp/tiny/000/tiny_00000.png --count 10000
///     swift run -c release --package-path Benchmarks bake-bench CORPUS_DIR --jobs 2
///     swift run -c release --package-path Benchmarks png-decode-bench CORPUS_DIR --min-pixels 262144
///     swift run -c release --package-path Benchmarks descriptor-bench FONT.fnt MAP.tmx ...
///     swift run -c release --package-path Benchmarks font-bench sample-assets/fonts/DejaVuSans.ttf --sizes 32 64
///     swift run -c release --package-path Benchmarks gpu-bench /tmp/gpu-corpus --threads 2
///     swift run -c release --package-path Benchmarks remote-bench --size-mb 100 --rounds 7 --many 64 --many-size-kb 1024
///     swift run -c release --package-path Benchmarks astc-bench /tmp/gpu-corpus --threads 2
let package = Package(
    name: "PreloadBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibPNGBench", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "CBenchSupport"),
        .target(name: "CBareDecode", dependencies: ["CLibPNGBench", "CBenchSupport"]),
        .target(name: "CBareInflate", dependencies: ["CBenchSupport"], linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "BenchSupport",
            dependencies: ["CBenchSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(
            name: "preload-bench",
            dependencies: [
                "CBareDecode", "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "dedupe-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Issue 52: applying a pack patch against copying the pack (Benchmarks/Scripts/pack_patch.sh).
        .executableTarget(
            name: "pack-patch-bench",
            dependencies: [.product(name: "Preload", package: mainPackage)]),
        .executableTarget(
            name: "pack-bench",
            dependencies: [
                "CBareInflate", "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadAuthoring", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "bake-bench",
            dependencies: [
                "CBareDecode", "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadAuthoring", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "descriptor-bench",
            dependencies: [
                .product(name: "Preload", package: mainPackage), .product(name: "PreloadFont", package: mainPackage),
                .product(name: "PreloadTileMap", package: mainPackage), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "font-bench",
            dependencies: [
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadAuthoring", package: mainPackage),
                .product(name: "PreloadTrueType", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "remote-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadRemote", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "astc-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadGPU", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "gpu-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "PreloadGPU", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "png-decode-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Preload", package: mainPackage),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
