import Foundation
import Preload
import PreloadAnimation
import PreloadTestSupport
import Testing

/// The Aseprite plugin inside a coordinator: a folder's `.aseprite` loads as a `SpriteAnimation`.
@Suite struct AsepriteLoaderTests {
    @Test func aFolderWithAnAsepriteFileLoadsAnAnimation() async throws {
        let directory = try TemporaryDirectory("aseprite-loader-tests")
        try directory.write("hero.aseprite", try AsepriteFixture.twoLayers().bytes)
        try directory.write("disguised.bin", try AsepriteFixture.twoLayers().bytes)
        let coordinator = try PreloadCoordinator(plugins: [AsepriteLoader()])
        let report = try await coordinator.preload([.folder(directory.path, name: "sprites"), AssetRequest(path: directory.file("disguised.bin"))])
        #expect(report.everythingLoaded && report.warned.isEmpty)
        #expect(report.results.map(\.plugin) == ["aseprite", "aseprite"])
        let hero = try #require(coordinator.assets.asset(named: "sprites/hero.aseprite", as: SpriteAnimation.self))
        #expect(hero.kind == .animation && hero.frames.count == 2 && hero.pages.count == 1)
        #expect(hero.byteCount == hero.pages[0].width * hero.pages[0].height * 4)
        #expect(hero.canvasPixels(ofFrame: 1) == [200, 100, 50, 255, 255, 0, 0, 128, 10, 20, 30, 64])
        #expect(hero.frameIndex(at: .milliseconds(120), tag: "all") == 1)
        let description = hero.assetDescription(checksums: nil)
        #expect(description.summary == "animation 3x1, 2 frames, 250 ms, loops, 2 tags (all, second)")
    }

    @Test func aDamagedFileFailsAloneNamingItsCause() async throws {
        let directory = try TemporaryDirectory("aseprite-loader-damage")
        var lying = try AsepriteFixture.twoLayers()
        lying.statedFrameCount = 4
        try directory.write("lying.aseprite", lying.bytes)
        try directory.write("good.ase", try AsepriteFixture.twoLayers().bytes)
        let coordinator = try PreloadCoordinator(plugins: [AsepriteLoader()])
        let report = try await coordinator.preload([.folder(directory.path, name: "sprites")])
        #expect(report.results.count == 2 && report.failed.count == 1)
        let failure = try #require(report.failed.first)
        let message = failure.outcome.error.map { "\($0)" } ?? ""
        #expect(message.contains("lying.aseprite") && message.contains("the header says 4 frames"))
        #expect(coordinator.assets.asset(named: "sprites/good.ase", as: SpriteAnimation.self) != nil)
    }

    /// A text file named `.aseprite` (5 bytes) is not an Aseprite file, not a truncated one.
    @Test func aShortTextFileNamedAsepriteIsNotOne() async throws {
        let directory = try TemporaryDirectory("aseprite-loader-text")
        try directory.write("x.aseprite", text: "hello")
        let coordinator = try PreloadCoordinator(plugins: [AsepriteLoader()])
        let report = try await coordinator.preload([AssetRequest(path: directory.file("x.aseprite"))])
        let failure = try #require(report.failed.first)
        let message = failure.outcome.error.map { "\($0)" } ?? ""
        #expect(message.contains("x.aseprite") && message.contains("not an Aseprite file: 5 bytes, too short"), "\(message)")
        #expect(failure.outcome.error?.category == .unsupported)
    }

    /// The fuzzer's seeds (`Fuzz/seeds/aseprite`, written by `AsepriteFixture`) are files that
    /// load, so mutations start from the whole reader, not from an early refusal (an old
    /// placeholder slice chunk made `indexed.aseprite` fail by name once slices were read).
    @Test func theFuzzersAsepriteSeedsLoad() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds/aseprite")
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds.path).filter { $0.hasSuffix(".aseprite") }.sorted()
        #expect(names.count >= 8 && names.contains("indexed.aseprite"), "\(names)")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: seeds.appendingPathComponent(name)))
            #expect(throws: Never.self, "\(name)") { _ = try AsepriteLoader.animation(from: bytes) }
        }
        let indexed = try AsepriteLoader.animation(from: [UInt8](try Data(contentsOf: seeds.appendingPathComponent("indexed.aseprite"))))
        #expect(indexed.animation.slices.map(\.name) == ["hit"] && indexed.animation.slices[0].userData.text == "A")
    }
}
