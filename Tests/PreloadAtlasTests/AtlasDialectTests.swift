import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// The golden fixtures (written by Fixtures/make_atlas_fixtures.py with Pillow, each dialect by
/// its own conventions): every frame, materialized, must equal its original sprite file.
@Suite struct AtlasDialectTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    static let spriteNames = ["hero", "coin", "arrow", "tall", "slime_01", "slime_02"]
    static let rotated: Set<String> = ["arrow", "tall"]

    struct Case: Sendable, CustomTestStringConvertible {
        let path: String
        let format: TextureAtlas.Format
        let namePrefix: String
        let nameSuffix: String
        let pages: Int
        var testDescription: String { path }
    }

    static let cases = [
        Case(path: "texturepacker-hash/sheet.json", format: .texturePackerHash, namePrefix: "chars/", nameSuffix: ".png", pages: 1),
        Case(path: "texturepacker-array/sheet.json", format: .texturePackerArray, namePrefix: "", nameSuffix: ".png", pages: 1),
        Case(path: "texturepacker-multipack/sheet-0.json", format: .texturePackerHash, namePrefix: "", nameSuffix: ".png", pages: 2),
        Case(path: "phaser-multiatlas/multi.json", format: .texturePackerArray, namePrefix: "", nameSuffix: ".png", pages: 2),
        Case(path: "libgdx/sheet.atlas", format: .libgdx, namePrefix: "", nameSuffix: "", pages: 2),
        Case(path: "libgdx-legacy/sheet.atlas", format: .libgdx, namePrefix: "", nameSuffix: "", pages: 2),
        Case(path: "spritekit/sheet.atlasc", format: .spriteKitAtlasc, namePrefix: "", nameSuffix: ".png", pages: 1),
    ]

    static func sprite(_ name: String) throws -> Texture {
        try PNGDecoder.decode(try FileContents.read(path: fixtures + "/sprites/\(name).png"))
    }

    static func load(_ relative: String) async throws -> (PreloadReport, TextureAtlas?) {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let report = try await coordinator.start([AssetRequest(path: fixtures + "/" + relative, name: "atlas")]).finished()
        return (report, coordinator.assets.asset(named: "atlas", as: TextureAtlas.self))
    }

    /// The frame a sprite file became: by name, or for libGDX animations by base name and index.
    static func frame(for sprite: String, in atlas: TextureAtlas, _ testCase: Case) -> AtlasFrame? {
        if atlas.format == .libgdx, let underscore = sprite.lastIndex(of: "_"), let index = Int(sprite[sprite.index(after: underscore)...]) {
            return atlas.frames(named: String(sprite[..<underscore])).first { $0.index == index }
        }
        return atlas.frame(named: testCase.namePrefix + sprite + testCase.nameSuffix)
    }

    @Test(arguments: cases)
    func everyFrameEqualsItsOriginalSprite(_ testCase: Case) async throws {
        let (report, loaded) = try await Self.load(testCase.path)
        let atlas = try #require(loaded, "\(report.errors)")
        #expect(atlas.format == testCase.format)
        #expect(atlas.pages.count == testCase.pages)
        #expect(atlas.frames.count == Self.spriteNames.count)
        for name in Self.spriteNames {
            let frame = try #require(Self.frame(for: name, in: atlas, testCase), "\(name) in \(atlas.frameNames)")
            let original = try Self.sprite(name)
            let image = try atlas.image(of: frame)
            #expect(image.width == original.width && image.height == original.height, "\(name)")
            #expect(image.pixels == original.pixels, "\(name): pixels differ")
            #expect(frame.isRotated == Self.rotated.contains(name), "\(name) rotation")
            #expect(frame.sourceWidth == original.width && frame.sourceHeight == original.height)
            #expect(frame.rect.isInside(width: atlas.pageTexture(of: frame).width, height: atlas.pageTexture(of: frame).height))
        }
        #expect(atlas.frame(named: "coin") != nil || atlas.frame(named: "chars/coin") != nil, "found without extension")
        #expect(try #require(Self.frame(for: "hero", in: atlas, testCase)).isTrimmed)
        #expect(try #require(Self.frame(for: "coin", in: atlas, testCase)).isTrimmed == false)
    }

    @Test func texturePackerExtrasArePreserved() async throws {
        let (report, loaded) = try await Self.load("texturepacker-hash/sheet.json")
        let atlas = try #require(loaded, "\(report.errors)")
        let hero = try #require(atlas.frame(named: "chars/hero.png"))
        #expect(hero.pivot == SIMD2(0.5, 0.875))
        #expect(atlas.scale == 1, "meta.scale \"1\" (a string)")
        let uv = atlas.textureCoordinates(of: hero)
        #expect(uv.u0 == Double(hero.rect.x) / 96 && uv.v1 == Double(hero.rect.maxY) / 96)
    }

    @Test func libGDXIndexesOrderAnimationsAndNineSlicesSurvive() async throws {
        let (_, loaded) = try await Self.load("libgdx/sheet.atlas")
        let atlas = try #require(loaded)
        #expect(atlas.frames.prefix(2).map(\.index) == [1, 2], "indexed regions first, in index order")
        #expect(atlas.frames(named: "slime").map(\.index) == [1, 2])
        #expect(atlas.frame(named: "slime")?.index == 1)
        #expect(atlas.frame(named: "coin")?.nineSlice == NineSlice(left: 4, right: 4, top: 4, bottom: 4, padding: [1, 1, 1, 1]))
        #expect(atlas.frameNames == ["slime", "hero", "coin", "arrow", "tall"])
    }
}
