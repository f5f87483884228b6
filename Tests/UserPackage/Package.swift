// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let preload = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

/// A package the way a user's would be: it depends on Preload by path and uses only its public
/// products. `ReadmeExample` is the README's example, compiled and run by `.ci/run`; `WebPGame`
/// names `PreloadWebP` and `.ci/run` checks that it links neither libwebp nor libpng; the tests
/// walk the ten-minute path (a folder preloaded with progress on the main actor, lookups by the
/// caller's names, a third-party plugin, cancellation with a partial report), and test that
/// plugin with the package's own test doubles (`PreloadTestSupport`).
let package = Package(
    name: "UserPackage",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ReadmeExample",
            dependencies: [
                .product(name: "Preload", package: preload), .product(name: "PreloadAudio", package: preload),
                .product(name: "PreloadFont", package: preload), .product(name: "PreloadTileMap", package: preload),
            ]),
        // A game that names a codec product opened at run time: it links no libwebp.
        .executableTarget(
            name: "WebPGame",
            dependencies: [.product(name: "PreloadCore", package: preload), .product(name: "PreloadWebP", package: preload)]),
        .testTarget(
            name: "TenMinutePathTests",
            dependencies: [.product(name: "Preload", package: preload), .product(name: "PreloadTestSupport", package: preload)]),
    ],
    swiftLanguageModes: [.v6]
)
