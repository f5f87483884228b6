import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Sprite sheets cut as Phaser cuts them, and atlas pages moved where a loader says.
@Suite struct SpriteSheetGridTests {
    /// Frame origins for a grid, in name order.
    func origins(_ grid: SpriteSheetGrid, _ width: Int, _ height: Int) -> [String] {
        grid.frames(width: width, height: height).map { "\($0.name)@\($0.rect.x),\($0.rect.y)" }
    }

    @Test func framesFollowPhasersGridRangeAndEdgeRules() {
        // 50x20 with 16x16 frames: 3 whole columns (the last 2 pixels are no frame), 1 row.
        #expect(origins(SpriteSheetGrid(frameWidth: 16), 50, 20) == ["0@0,0", "1@16,0", "2@32,0"])
        // Margin and spacing: (35 - 2 + 1) / (10 + 1) = 3 columns, (24 - 2 + 1) / 11 = 2 rows.
        #expect(
            origins(SpriteSheetGrid(frameWidth: 10, margin: 2, spacing: 1), 35, 24)
                == ["0@2,2", "1@13,2", "2@24,2", "3@2,13", "4@13,13", "5@24,13"])
        // A range is renumbered from 0; a negative start counts from the end.
        #expect(origins(SpriteSheetGrid(frameWidth: 8, startFrame: 2, endFrame: 3), 32, 8) == ["0@16,0", "1@24,0"])
        #expect(origins(SpriteSheetGrid(frameWidth: 8, startFrame: -1), 32, 8) == ["0@24,0"])
        // Out of range: a start past the end means 0, an end past it (or before the start) the last.
        #expect(origins(SpriteSheetGrid(frameWidth: 8, startFrame: 9, endFrame: 99), 32, 8).count == 4)
        #expect(origins(SpriteSheetGrid(frameWidth: 8, startFrame: 2, endFrame: 1), 32, 8) == ["0@16,0", "1@24,0"])
        #expect(origins(SpriteSheetGrid(frameWidth: 8, startFrame: 4), 32, 8).isEmpty)  // start == total: none
        #expect(origins(SpriteSheetGrid(frameWidth: 64), 32, 32).isEmpty)
        #expect(SpriteSheetGrid(frameWidth: 10, frameHeight: 0).frameHeight == 1)
    }

    @Test func aGridTooLargeForItsImageLoadsEmptyWithAWarningAndStrictFailsIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let image = try directory.write("small.png", PNGFixture.rgba(width: 8, height: 8, pixels: PNGFixture.noise(width: 8, height: 8)))
        let request = AssetRequest(
            path: image, name: "sheet", plugin: "atlas", options: AssetOptions().with(SpriteSheetGrid.self, SpriteSheetGrid(frameWidth: 16)))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let report = try await coordinator.preload([request])
        let sheet = try #require(coordinator.assets.asset(named: "sheet", as: TextureAtlas.self))
        #expect(sheet.frames.isEmpty && sheet.pages.count == 1)
        #expect(report.results.first?.warnings.map(\.code) == [.atlasEmptyGrid])
        let strict = try await PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()]).preload([request], options: PreloadOptions(isStrict: true))
        #expect(strict.results.first?.outcome.error?.category == .strict)
    }

    @Test func pagesGivenAsFilesMustMatchTheDescriptorsPageCount() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let page = PNGFixture.rgba(width: 8, height: 8, pixels: PNGFixture.noise(width: 8, height: 8))
        try directory.write("art/other.png", page)
        let atlas = try directory.write(
            "ui.json", text: #"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 4, "h": 4}}}, "meta": {"image": "missing.png"}}"#)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let moved = AssetOptions().with(AtlasPageLocation.self, .files([directory.file("art/other.png")]))
        let twoPages = AssetOptions().with(AtlasPageLocation.self, .files([directory.file("art/other.png"), directory.file("art/other.png")]))
        let folder = AssetOptions().with(AtlasPageLocation.self, .folder(directory.file("art")))
        let report = try await coordinator.preload([
            AssetRequest(path: atlas, name: "moved", plugin: "atlas", options: moved),
            AssetRequest(path: atlas, name: "two", plugin: "atlas", options: twoPages),
            AssetRequest(path: atlas, name: "folder", plugin: "atlas", options: folder),
        ])
        let outcomes = Dictionary(uniqueKeysWithValues: report.results.map { ($0.request.name, $0.outcome) })
        #expect((outcomes["moved"]?.asset as? TextureAtlas)?.pages.first?.texture.pixels.array == (try PNGDecoder.decode(page)).pixels.array)
        #expect(outcomes["two"]?.error?.description.contains("the descriptor has 1 page but 2 page files were given") == true)
        #expect(outcomes["folder"]?.error?.description.contains("missing.png") == true)  // the name as written, in art/
        #expect(outcomes["folder"]?.error?.description.contains(directory.file("art/missing.png")) == true)
    }
}
