// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let preload = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

/// A game's loading screen on SDL2: a level streams in through Preload's hand-off with a
/// per-frame budget, then is drawn. A separate package, so that users of the library never
/// build it. From the repository root:
///
///     swift run --package-path Examples/LoadingScreen LoadingScreen
///     xvfb-run swift run --package-path Examples/LoadingScreen LoadingScreen --frames 90 --screenshot /tmp/shot.png
///     swift run --package-path Examples/LoadingScreen ScreenshotCheck /tmp/shot.png
///     SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/tmp/audio.raw xvfb-run swift run --package-path Examples/LoadingScreen LoadingScreen --frames 90
///     swift run --package-path Examples/LoadingScreen AudioCheck /tmp/audio.raw
///     swift run --package-path Examples/LoadingScreen LoadingScreen --bake /tmp/level.bake --gpu bc    (or astc)
///     xvfb-run swift run --package-path Examples/LoadingScreen LoadingScreen --baked /tmp/level.bake --frames 30 --screenshot /tmp/shot.png
///     swift run --package-path Examples/LoadingScreen ScreenshotCheck --min-psnr 27 /tmp/shot.png
/// SDL2 as a system library. On Linux its headers (`/usr/include/SDL2`) and library are where the
/// compiler looks anyway, so pkg-config is not asked: its flags for SDL2 carry `-D_REENTRANT`,
/// which SwiftPM refuses with a warning on every build. Elsewhere (Homebrew), pkg-config finds it.
#if os(Linux)
    let sdl2 = Target.systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])])
#else
    let sdl2 = Target.systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"]), .brew(["sdl2"])])
#endif

let package = Package(
    name: "LoadingScreen",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        sdl2,
        .executableTarget(
            name: "LoadingScreen",
            dependencies: [
                "CSDL2", "SceneLayout", .product(name: "Preload", package: preload),
                .product(name: "PreloadAuthoring", package: preload), .product(name: "PreloadAudio", package: preload),
                .product(name: "PreloadFont", package: preload), .product(name: "PreloadTileMap", package: preload),
                .product(name: "PreloadGPU", package: preload), .product(name: "PreloadAnimation", package: preload),
            ]),
        .target(name: "SceneLayout"),
        .executableTarget(name: "ScreenshotCheck", dependencies: ["SceneLayout", .product(name: "Preload", package: preload)]),
        .executableTarget(
            name: "AudioCheck",
            dependencies: ["CSDL2", .product(name: "Preload", package: preload), .product(name: "PreloadAudio", package: preload)]),
    ],
    swiftLanguageModes: [.v6]
)
