import Foundation
import Preload
import PreloadAnimation
import PreloadPNG
import Testing

/// The held-out check: real `.aseprite` files beside the sheets Aseprite exported from them
/// (`NAME.aseprite`, `NAME.json`, `NAME.png`) in the folder `PRELOAD_ASEPRITE_PAIRS` names load
/// as the same frames, pixel for pixel, with the same durations and tags. Without the variable
/// there is nothing to check (the files are not the repository's to commit).
@Suite struct AsepriteHeldOutTests {
    static let folder = ProcessInfo.processInfo.environment["PRELOAD_ASEPRITE_PAIRS"]

    @Test(.enabled(if: folder != nil)) func eachFileLoadsAsItsExportedSheet() async throws {
        let folder = try #require(Self.folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".aseprite") }.map { String($0.dropLast(9)) }
            .filter { FileManager.default.fileExists(atPath: "\(folder)/\($0).json") }.sorted()
        #expect(!names.isEmpty)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader(), AsepriteLoader()])
        _ = try await coordinator.preload([.folder(folder, name: "held")])
        for name in names {
            let ours = try #require(coordinator.assets.asset(named: "held/\(name).aseprite", as: SpriteAnimation.self), "\(name)")
            let theirs = try #require(coordinator.assets.asset(named: "held/\(name).json", as: SpriteAnimation.self), "\(name)")
            #expect(ours.frames.count == theirs.frames.count, "\(name)")
            #expect(ours.frames.map(\.durationMilliseconds) == theirs.frames.map(\.durationMilliseconds), "\(name)")
            #expect(ours.tags.map { [$0.name, "\($0.from)", "\($0.to)"] } == theirs.tags.map { [$0.name, "\($0.from)", "\($0.to)"] }, "\(name)")
            for index in 0..<min(ours.frames.count, theirs.frames.count) {
                #expect(ours.canvasPixels(ofFrame: index) == theirs.canvasPixels(ofFrame: index), "\(name) frame \(index)")
            }
        }
    }
}
