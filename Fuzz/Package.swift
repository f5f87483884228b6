// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

/// libFuzzer harnesses for the parsers that read untrusted bytes: packs (pak, zip, gzip indexes
/// and entries), PNG decoding, atlas descriptors, baked packs, and Tiled maps. Kept out of the main package; see
/// Fuzz/README.md (`Fuzz/run pack 60` builds one harness and fuzzes it for 60 seconds).
let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
/// One executable per harness, each in Sources/NAME/main.swift.
let harnesses = [
    "fuzz-pack", "fuzz-png", "fuzz-atlas", "fuzz-coordinator", "fuzz-baked", "fuzz-jpeg", "fuzz-webp", "fuzz-qoi", "fuzz-audio", "fuzz-font",
    "fuzz-truetype", "fuzz-tilemap", "fuzz-ktx2", "fuzz-aseprite", "fuzz-apng", "fuzz-animated-webp", "fuzz-gif",
]

let package = Package(
    name: "PreloadFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver", .product(name: "Preload", package: mainPackage), .product(name: "PreloadAnimation", package: mainPackage),
            ]),
    ]
        + harnesses.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    "FuzzSupport", .product(name: "Preload", package: mainPackage),
                    .product(name: "PreloadAuthoring", package: mainPackage), .product(name: "PreloadBaked", package: mainPackage),
                    .product(name: "PreloadJPEG", package: mainPackage), .product(name: "PreloadWebP", package: mainPackage),
                    .product(name: "PreloadQOI", package: mainPackage), .product(name: "PreloadAudio", package: mainPackage),
                    .product(name: "PreloadFont", package: mainPackage), .product(name: "PreloadTrueType", package: mainPackage),
                    .product(name: "PreloadTileMap", package: mainPackage), .product(name: "PreloadKTX2", package: mainPackage),
                    .product(name: "PreloadAnimation", package: mainPackage), .product(name: "PreloadZlib", package: mainPackage),
                ],
                swiftSettings: fuzzerFlags)
        },
    swiftLanguageModes: [.v6]
)
