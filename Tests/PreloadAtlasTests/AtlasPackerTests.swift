import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Sprite folders packed at load time, and the packer's own guarantees.
@Suite struct AtlasPackerTests {
    static let folder = AtlasDialectTests.fixtures + "/folder/chars.atlas"

    func loadFolder(options: AtlasLoaderSettings = AtlasLoaderSettings()) async throws -> TextureAtlas {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        var request = AssetRequest(path: Self.folder, name: "chars")
        request.options[AtlasLoaderSettings.self] = options
        let report = try await coordinator.start([request]).finished()
        return try #require(coordinator.assets.asset(named: "chars", as: TextureAtlas.self), "\(report.errors)")
    }

    @Test(arguments: [1, 2])
    func aSpriteFolderPacksIntoFramesEqualToItsSprites(scale: Int) async throws {
        let atlas = try await loadFolder(options: AtlasLoaderSettings(scale: scale))
        #expect(atlas.format == .folder && atlas.pages.count == 1)
        #expect(atlas.frameNames == AtlasDialectTests.spriteNames.sorted().map { $0 + ".png" })
        for name in AtlasDialectTests.spriteNames {
            let frame = try #require(atlas.frame(named: name))
            let file = Self.folder + "/" + name + (scale == 2 ? "@2x.png" : ".png")
            let original = try PNGDecoder.decode(try FileContents.read(path: file))
            #expect(try atlas.image(of: frame).pixels == original.pixels, "\(name) at scale \(scale)")
        }
        #expect(try #require(atlas.frame(named: "hero")).isTrimmed)
        try Self.expectNoOverlaps(atlas.frames, padding: 2)
    }

    @Test func oneFolderAtTwoScalesInOneBatchGivesTwoAtlases() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        var small = AssetRequest(path: Self.folder, name: "1x")
        small.options[AtlasLoaderSettings.self] = AtlasLoaderSettings(scale: 1)
        var large = AssetRequest(path: Self.folder, name: "2x")
        large.options[AtlasLoaderSettings.self] = AtlasLoaderSettings(scale: 2)
        _ = try await coordinator.start([small, large]).finished()
        let one = try #require(coordinator.assets.asset(named: "1x", as: TextureAtlas.self))
        let two = try #require(coordinator.assets.asset(named: "2x", as: TextureAtlas.self))
        #expect(one.frame(named: "hero")?.sourceWidth == 40 && two.frame(named: "hero")?.sourceWidth == 80)
    }

    @Test func packingWorkCountsInTheBatchsProgress() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let batch = coordinator.start([AssetRequest(path: Self.folder)])
        _ = try await batch.finished()
        let sprites = AtlasDialectTests.spriteNames.reduce(Int64(0)) { total, name in
            total + ((try? FileFacts.of(path: Self.folder + "/" + name + ".png").size) ?? 0)
        }
        // The sprites' own loads, plus the packing, which weighs what the sprites weigh.
        #expect(batch.progress.totalUnitCount == 2 * sprites)
        #expect(batch.progress.fractionCompleted == 1.0)
    }

    static func expectNoOverlaps(_ frames: [AtlasFrame], padding: Int) throws {
        for (index, a) in frames.enumerated() {
            for b in frames[(index + 1)...] where a.page == b.page {
                let apart =
                    a.rect.maxX + padding <= b.rect.x || b.rect.maxX + padding <= a.rect.x
                    || a.rect.maxY + padding <= b.rect.y || b.rect.maxY + padding <= a.rect.y
                #expect(apart, "\(a.name) \(a.rect) and \(b.name) \(b.rect) closer than \(padding) px")
            }
        }
    }

    static func mixedSprites(count: Int, seed: UInt64) -> [AtlasPacker.Sprite] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { index in
            let shape = next(10)
            let (width, height) =
                shape < 5 ? (8 + next(56), 8 + next(56)) : shape < 8 ? (32 + next(96), 16 + next(48)) : (64 + next(128), 64 + next(128))
            let pixels = [UInt8](repeating: 255, count: width * height * 4)
            return AtlasPacker.Sprite(
                name: "s\(index)", path: "s\(index).png",
                texture: Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels))
        }
    }

    @Test func aThousandMixedSpritesFillPagesWell() throws {
        let sprites = Self.mixedSprites(count: 1000, seed: 7)
        let clock = ContinuousClock.now
        let result = try AtlasPacker.pack(sprites, file: "mixed")
        let elapsed = ContinuousClock.now - clock
        let pages = result.pages.enumerated().map { index, page in
            let used = result.frames.filter { $0.page == index }.reduce(0) { $0 + $1.rect.width * $1.rect.height }
            return "\(page.width)x\(page.height) \(Double(used) / Double(page.width * page.height))"
        }
        #expect(result.occupancy >= 0.85, "occupancy \(result.occupancy) on pages \(pages), in \(elapsed)")
        #expect(result.pages.allSatisfy { $0.width <= 2048 && $0.height <= 2048 })
        try Self.expectNoOverlaps(result.frames, padding: 2)
        for frame in result.frames {
            #expect(frame.rect.isInside(width: result.pages[frame.page].width, height: result.pages[frame.page].height))
        }
    }

    @Test func spritesSpillOntoMorePagesAndPagesShrink() throws {
        let sprites = Self.mixedSprites(count: 40, seed: 3)
        let result = try AtlasPacker.pack(sprites, options: AtlasLoaderSettings(maxPageSize: 256), file: "small")
        #expect(result.pages.count > 1)
        #expect(result.pages.allSatisfy { $0.width <= 256 && $0.height <= 256 })
        let powerOfTwo = try AtlasPacker.pack(sprites, options: AtlasLoaderSettings(maxPageSize: 256, powerOfTwoPages: true), file: "small")
        #expect(powerOfTwo.pages.allSatisfy { $0.width & ($0.width - 1) == 0 && $0.height & ($0.height - 1) == 0 })
        let one = try AtlasPacker.pack(Array(sprites.prefix(1)), file: "one")
        #expect(one.pages[0].width == sprites[0].texture.width || one.pages[0].width == sprites[0].texture.height, "shrunk to the sprite")
    }

    @Test func aSpriteLargerThanThePageLimitIsAnErrorNamingIt() throws {
        let huge = AtlasPacker.Sprite(
            name: "boss.png", path: "art/boss.png",
            texture: Texture(width: 300, height: 10, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 255, count: 300 * 10 * 4)))
        #expect(throws: AtlasError.spriteTooLarge(file: "art/boss.png", sprite: "boss.png", width: 300, height: 10, pageLimit: 256)) {
            try AtlasPacker.pack([huge], options: AtlasLoaderSettings(maxPageSize: 256), file: "art.atlas")
        }
    }

    /// `preload atlas pack --padding 9223372036854775807` trapped adding the padding to a size.
    @Test func absurdMarginsAreClampedToAPageSide() throws {
        var options = AtlasLoaderSettings(padding: .max, extrusion: .max)
        #expect(options.padding == 4096 && options.extrusion == 4096)
        options.padding = .min
        options.extrusion = 3
        options.maxPageSize = .max
        #expect(options.padding == 0 && options.extrusion == 3 && options.maxPageSize == 4096)
        let sprite = Self.mixedSprites(count: 1, seed: 3)[0]
        let spaced = try AtlasPacker.pack([sprite], options: AtlasLoaderSettings(padding: .max), file: "x")
        #expect(spaced.frames.count == 1)
        #expect(throws: AtlasError.self) { try AtlasPacker.pack([sprite], options: AtlasLoaderSettings(extrusion: .max), file: "x") }
    }

    @Test func extrusionRepeatsEdgePixelsAndTrimmingCanBeOff() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for y in 1..<3 {
            for x in 1..<3 { pixels.replaceSubrange(((y * 4 + x) * 4)..<((y * 4 + x) * 4 + 4), with: [UInt8(x * 60), UInt8(y * 60), 9, 255]) }
        }
        let sprite = AtlasPacker.Sprite(
            name: "dot", path: "dot.png", texture: Texture(width: 4, height: 4, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels))
        let extruded = try AtlasPacker.pack([sprite], options: AtlasLoaderSettings(padding: 0, extrusion: 1, allowsRotation: false), file: "x")
        let frame = extruded.frames[0], page = extruded.pages[0]
        #expect(frame.rect == PixelRect(x: 1, y: 1, width: 2, height: 2) && page.width == 4 && page.height == 4)
        #expect(page.rgba8(x: 0, y: 0) == page.rgba8(x: 1, y: 1), "corner repeats the corner pixel")
        #expect(page.rgba8(x: 3, y: 1) == page.rgba8(x: 2, y: 1), "right edge repeats")
        #expect(try TextureAtlas(format: .folder, pages: [AtlasPage(path: "p", texture: page)], frames: [frame]).image(of: frame).pixels == pixels)
        let whole = try AtlasPacker.pack([sprite], options: AtlasLoaderSettings(trimsTransparentBorders: false), file: "x")
        #expect(whole.frames[0].rect.width == 4 && !whole.frames[0].isTrimmed)
    }
}
