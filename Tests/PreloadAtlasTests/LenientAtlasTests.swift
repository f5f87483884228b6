import Foundation
import PreloadAuthoring
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Atlases libGDX, Spine and PixiJS open load, with warnings for what is irregular; strict mode
/// fails those, and what no runtime can make sense of still fails.
@Suite struct LenientAtlasTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator
    /// A 3x2 sprite, and a 16x16 page holding it upright at (0, 0), turned 90° counter-clockwise
    /// at (4, 0), 180° at (8, 0) and 270° at (12, 0), as Spine stores `rotate: 90/180/270`.
    static let sprite = PNGFixture.noise(width: 3, height: 2, seed: 21)
    static let page: [UInt8] = {
        var pixels = [UInt8](repeating: 0, count: 16 * 16 * 4)
        func put(_ x: Int, _ y: Int, from sx: Int, _ sy: Int) {
            for channel in 0..<4 { pixels[(y * 16 + x) * 4 + channel] = sprite[(sy * 3 + sx) * 4 + channel] }
        }
        for y in 0..<2 {
            for x in 0..<3 {
                put(x, y, from: x, y)  // upright
                put(4 + y, 0 + (3 - 1 - x), from: x, y)  // 90° counter-clockwise: 2 wide, 3 tall
                put(8 + (3 - 1 - x), 0 + (2 - 1 - y), from: x, y)  // 180°
                put(12 + (2 - 1 - y), 0 + x, from: x, y)  // 270° counter-clockwise (90° clockwise)
            }
        }
        return PNGFixture.rgba(width: 16, height: 16, pixels: pixels)
    }()
    static let libGDX = """
        page.png
        size: 16, 16
        format: RGBA8888
        filter: Nearest, Nearest
        repeat: none
        upright
          rotate: false
          bounds: 0, 0, 3, 2
        quarter
          rotate: true
          bounds: 4, 0, 3, 2
        half
          rotate: 180
          bounds: 8, 0, 3, 2
        threeQuarters
          rotate: 270
          bounds: 12, 0, 3, 2

        """

    init() throws {
        directory = try TemporaryDirectory()
        coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
        try directory.write("page.png", Self.page)
    }

    func load(_ path: String, strict: Bool = false) async throws -> AssetResult {
        try await coordinator.start([AssetRequest(path: path)], options: PreloadOptions(isStrict: strict)).finished().results[0]
    }

    func atlas(_ result: AssetResult) throws -> TextureAtlas {
        try #require(result.outcome.asset as? TextureAtlas, "\(result.outcome)")
    }

    @Test func spineDegreesMapEveryAngleToTheUprightSprite() async throws {
        let result = try await load(try directory.write("angles.atlas", text: Self.libGDX))
        let atlas = try atlas(result)
        #expect(result.warnings.isEmpty)
        for name in ["upright", "quarter", "half", "threeQuarters"] {
            let frame = try #require(atlas.frame(named: name))
            #expect(frame.contentWidth == 3 && frame.contentHeight == 2, "\(name)")
            #expect(try atlas.image(of: frame).pixels == Self.sprite, "\(name)")
        }
        #expect(atlas.frame(named: "half")?.rotation == .upsideDown)
        #expect(atlas.frame(named: "threeQuarters")?.rect == PixelRect(x: 12, y: 0, width: 2, height: 3))
    }

    @Test(arguments: ["45", "360", "-90"])
    func anotherAngleIsRefusedNamingTheRegion(angle: String) async throws {
        let text = Self.libGDX.replacingOccurrences(of: "rotate: 180", with: "rotate: \(angle)")
        let error = try #require(try await load(try directory.write("odd.atlas", text: text)).outcome.error)
        #expect(error.category == .unsupported && error.reason.contains("region 'half', line 13: 'rotate: \(angle)'"), "\(error)")
    }

    /// The line ends are named in the arguments, not given raw: a raw CR in a test's printed
    /// arguments breaks the line of a passing run's output.
    @Test(arguments: [("CRLF", "CRLF (Windows) line ends"), ("CR", "lone CR line ends")])
    func windowsAndOldMacLineEndsLoadWithAWarning(lineEndName: String, message: String) async throws {
        let lineEnd = lineEndName == "CRLF" ? "\r\n" : "\r"
        let reference = try atlas(try await load(try directory.write("unix.atlas", text: Self.libGDX)))
        let converted = Self.libGDX.replacingOccurrences(of: "\n", with: lineEnd)
        let path = try directory.write("converted.atlas", text: converted)
        let result = try await load(path)
        let atlas = try atlas(result)
        #expect(atlas.frames == reference.frames && atlas.pages.map(\.path) == reference.pages.map(\.path))
        #expect(result.warnings == [AssetWarning(.atlasLineEnds, message)])
        // Claimed by content too, whatever its name says.
        #expect(try AtlasLoader.describe(path: path).frames == reference.frames)
        let strict = try #require(try await load(path, strict: true).outcome.error)
        #expect(strict.category == .strict && strict.reason == "strict: \(message)")
    }

    @Test func aByteOrderMarkIsSkippedWithAWarning() async throws {
        let result = try await load(try directory.write("bom.atlas", text: "\u{FEFF}" + Self.libGDX))
        #expect(try atlas(result).frames.count == 4)
        #expect(result.warnings.map(\.code) == [.atlasByteOrderMark])
    }

    /// libGDX skins name a region twice: a plain region and its nine-patch twin.
    @Test func aRegionNamedTwiceKeepsBothAndTheFirstAnswersTheName() async throws {
        let text = """
            page.png
            size: 16, 16
            button
              bounds: 0, 0, 3, 2
            button
              bounds: 0, 0, 3, 2
              split: 1, 1, 0, 0
            run
              bounds: 4, 4, 2, 2
              index: 0
            run
              bounds: 6, 4, 2, 2
              index: 1

            """
        let path = try directory.write("skin.atlas", text: text)
        let result = try await load(path)
        let atlas = try atlas(result)
        #expect(atlas.frames(named: "button").count == 2)
        #expect(atlas.frame(named: "button")?.nineSlice == nil, "the first wins by name")
        #expect(atlas.frames(named: "button").last?.nineSlice == NineSlice(left: 1, right: 1, top: 0, bottom: 0))
        #expect(atlas.frame(named: "run", index: 1)?.rect == PixelRect(x: 6, y: 4, width: 2, height: 2))
        #expect(result.warnings.map(\.message) == ["frame 'button' is named more than once; the first is used by name"])
        #expect(try await load(path, strict: true).outcome.error?.category == .strict)
    }

    @Test func texturePackerBordersInEitherShapeGiveTheSameInsets() async throws {
        func descriptor(_ name: String, borders: String) throws -> String {
            try directory.write(
                name,
                text:
                    #"{"frames": {"panel.png": {"frame": {"x": 0, "y": 0, "w": 16, "h": 12}, "borders": \#(borders)}}, "meta": {"image": "page.png", "size": {"w": 16, "h": 16}}}"#
            )
        }
        let rectangle = try atlas(try await load(try descriptor("xywh.json", borders: #"{"x": 3, "y": 2, "w": 9, "h": 6}"#)))
        let insets = try atlas(try await load(try descriptor("ltrb.json", borders: #"{"left": 3, "top": 2, "right": 4, "bottom": 4}"#)))
        let expected = NineSlice(left: 3, right: 4, top: 2, bottom: 4)
        #expect(rectangle.frames.first?.nineSlice == expected && insets.frames.first?.nineSlice == expected)

        let missing = try await load(try descriptor("partial.json", borders: #"{"left": 3, "top": 2, "right": 4}"#))
        #expect(missing.outcome.error?.reason == "malformed atlas: frame 'panel.png': 'borders': 'bottom' is missing or not a number")
    }

    /// A page without IEND loads with the page's warning; strict fails the page and so the atlas.
    @Test func aPageWithoutIENDWarnsOnThePageAndStrictFailsTheAtlas() async throws {
        try directory.write("page.png", Array(Self.page.dropLast(12)))
        let path = try directory.write("angles.atlas", text: Self.libGDX)
        let report = try await coordinator.start([AssetRequest(path: path)]).finished()
        #expect(report.everythingLoaded && report.results[0].warnings.isEmpty)
        #expect(report.results[1].isDependency && report.results[1].warnings.map(\.code) == [.pngNoEnd])
        let strict = try await load(path, strict: true)
        #expect(strict.outcome.error?.category == .dependencyFailed)
        #expect(strict.outcome.error?.reason.contains("strict: no IEND chunk") == true, "\(String(describing: strict.outcome.error))")
    }

    @Test func atlasCheckReportsTheSameWarnings() throws {
        try directory.write("page.png", Array(Self.page.dropLast(12)))
        let text = Self.libGDX.replacingOccurrences(of: "\n", with: "\r\n") + "upright\r\n  bounds: 0, 0, 3, 2\r\n"
        let report = try AtlasCheck.check(path: try directory.write("check.atlas", text: text))
        #expect(report.problems.isEmpty)
        #expect(report.warnings.map(\.warning.code) == [.atlasLineEnds, .atlasDuplicateName, .pngNoEnd])
        #expect(report.warnings.last?.file == directory.file("page.png"))
    }
}
