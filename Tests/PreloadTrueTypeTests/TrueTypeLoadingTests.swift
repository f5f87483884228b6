import Foundation
import Preload
import PreloadFont
import PreloadTestSupport
import PreloadTrueType
import Testing

/// What the plugin claims, the options' limits and what they change, missing characters, a
/// collection's faces, progress and cancellation.
@Suite struct TrueTypeLoadingTests {
    @Test func fontsAreClaimedByExtensionAndByContent() async throws {
        let loader = TrueTypeFontLoader()
        #expect(loader.identifier == "truetype" && loader.assetKind == .font && loader.fileExtensions == ["ttf", "otf", "ttc", "otc"])
        for magic in [[0, 1, 0, 0], Array("OTTO".utf8), Array("true".utf8), Array("ttcf".utf8)] { #expect(loader.matchesSignature(magic)) }
        #expect(!loader.matchesSignature(Array("wOFF".utf8)) && !loader.matchesSignature([0, 1, 0]) && !loader.matchesSignature(Array("OTT".utf8)))

        let directory = try TemporaryDirectory("truetype-claims")
        let renamed = try directory.write("title.bin", [UInt8](try Data(contentsOf: URL(fileURLWithPath: TrueTypeFixtures.sampleFont))))
        let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
        let report = try await coordinator.preload([AssetRequest(path: renamed, name: "title")])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "title", as: BitmapFont.self)?.glyphs.count == 95)
    }

    @Test func theDefaultsArePrintableASCIIAt32PixelsOnOnePage() async throws {
        let result = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont)
        let font = try #require(result.outcome.asset as? BitmapFont, "\(TrueTypeFixtures.failure(result))")
        #expect(font.glyphs.map(\.id) == Array(32...126) && font.pages.count == 1 && result.warnings.isEmpty)
        #expect(font.metrics.size == 32 && font.metrics.spacing == [1, 1] && font.metrics.padding == [0, 0, 0, 0])
        let page = font.pages[0].texture
        #expect(page.pixelFormat == .rgba8 && page.alphaMode == .straight)
        // About square, and not much larger than the glyphs (a tenth to spare, and the spacing).
        #expect(max(page.width, page.height) <= 2 * min(page.width, page.height), "\(page.width)x\(page.height)")
        let inked = font.glyphs.reduce(0) { $0 + ($1.width + 1) * ($1.height + 1) }
        #expect(page.width * page.height <= inked * 3 / 2, "\(page.width)x\(page.height) for \(inked) pixels of glyphs")
        #expect(font.byteCount == font.pages[0].texture.byteCount && font.heldTextures.count == 1)
        // Lines are laid out by FreeType's advances and the kern table's pairs.
        let a = try #require(font.glyph(for: "A")), v = try #require(font.glyph(for: "V"))
        #expect(font.kerning(from: "A", to: "V") < 0)
        let line = font.layOut("AV")
        #expect(line.glyphs.map(\.x) == [a.xOffset, a.xAdvance + font.kerning(from: "A", to: "V") + v.xOffset])
    }

    @Test func charactersTheFaceLacksAreListedInOneWarning() async throws {
        var options = TrueTypeFontLoaderSettings(pixelSize: 20, characters: TrueTypeCharacters("A€é\u{1F600}"))
        let result = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options)
        let font = try #require(result.outcome.asset as? BitmapFont, "\(TrueTypeFixtures.failure(result))")
        #expect(font.glyphs.map(\.id) == [65, 0xE9])
        #expect(result.warnings.map(\.code) == [.trueTypeMissingCharacters])
        #expect(result.warnings.first?.message == "the face has no glyph for 2 characters: character 8364 ('€'), character 128512 ('😀')")
        let notdef = try #require(font.missingGlyph)
        #expect(notdef.id == -1 && notdef.width > 0 && font.layOut("€").glyphs.first?.glyph == notdef)

        // Asked for, they are drawn as the .notdef glyph: its image, their own ids.
        options.rendersMissingCharacters = true
        let drawn = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options)
        let withBoxes = try #require(drawn.outcome.asset as? BitmapFont)
        let euro = try #require(withBoxes.glyph(for: "€"))
        let box = try #require(withBoxes.missingGlyph)
        #expect(euro.id == 8364 && euro.width == box.width && euro.xAdvance == box.xAdvance && euro.yOffset == box.yOffset)
        #expect(withBoxes.glyphs.map(\.id) == [65, 0xE9, 8364, 128_512] && drawn.warnings.map(\.code) == [.trueTypeMissingCharacters])
    }

    @Test func aCollectionLoadsTheFaceAskedFor() async throws {
        var options = TrueTypeFontLoaderSettings(pixelSize: 24, characters: "AV")
        let regular = try #require(try await TrueTypeFixtures.load(TrueTypeFixtures.pair, options).outcome.asset as? BitmapFont)
        options.faceIndex = 1
        let bold = try #require(try await TrueTypeFixtures.load(TrueTypeFixtures.pair, options).outcome.asset as? BitmapFont)
        #expect(!regular.metrics.isBold && bold.metrics.isBold && regular.metrics.face == bold.metrics.face)
        #expect(bold.glyph(for: "A")!.xAdvance > regular.glyph(for: "A")!.xAdvance)

        options.faceIndex = 2
        let missing = try await TrueTypeFixtures.load(TrueTypeFixtures.pair, options)
        #expect(missing.outcome.error?.underlying as? TrueTypeFontError == .noSuchFace(index: 2, faceCount: 2))
        #expect(
            TrueTypeFixtures.failure(missing).hasSuffix("pair.ttc: the font has no face 2: it holds 2 faces (TrueTypeFontLoaderSettings.faceIndex)"))
        options.faceIndex = 1
        let single = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options)
        #expect(single.outcome.error?.underlying as? TrueTypeFontError == .noSuchFace(index: 1, faceCount: 1))
    }

    @Test func optionsOutOfRangeFailBeforeAnythingIsRendered() async throws {
        func failure(_ change: (inout TrueTypeFontLoaderSettings) -> Void) async throws -> (String, AssetError.Category?) {
            var options = TrueTypeFontLoaderSettings()
            change(&options)
            let result = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options)
            return (TrueTypeFixtures.failure(result), result.outcome.error?.category)
        }
        let large = try await failure { $0.pixelSize = 513 }
        #expect(large.0.hasSuffix("font over a limit: a pixel size of 513 is over the largest, 512") && large.1 == .limitExceeded)
        let many = try await failure { $0.characters = TrueTypeCharacters(ranges: ["\u{0}"..."\u{10FFFF}"]) }
        #expect(many.0.hasSuffix("font over a limit: 1112064 characters are more than one font renders (65536)") && many.1 == .limitExceeded)
        #expect(try await failure { $0.pixelSize = 0 }.0.hasSuffix("invalid TrueType font options: the pixel size is 0; it must be at least 1"))
        #expect(try await failure { $0.padding = 65 }.0.hasSuffix("the padding is 65; it must be from 0 to 64"))
        #expect(try await failure { $0.spacing = -1 }.0.hasSuffix("the spacing is -1; it must be from 0 to 64"))
        #expect(try await failure { $0.maxPageSize = 8 }.0.hasSuffix("the largest page side is 8; it must be from 16 to 4096"))
        let memory = try await failure { $0.maxPageBytes = 4096 }
        #expect(memory.0.contains("more pixels than the 4096 bytes TrueTypeFontLoaderSettings.maxPageBytes allows") && memory.1 == .limitExceeded)
        let tall = try await failure {
            $0.pixelSize = 100
            $0.maxPageSize = 64
        }
        #expect(tall.0.contains("character 33 ('!') is ") && tall.0.contains("larger than a page allows (64 a side)"), "\(tall.0)")
    }

    @Test func kerningIsSkippedWithAWarningAboveItsLimit() async throws {
        var options = TrueTypeFontLoaderSettings(pixelSize: 24, characters: TrueTypeCharacters(ranges: [" "..."\u{4FF}"]))
        options.mostKernedCharacters = 190
        let result = try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options)
        let font = try #require(result.outcome.asset as? BitmapFont, "\(TrueTypeFixtures.failure(result))")
        #expect(font.kerningPairs.isEmpty && font.glyphs.count == 191)
        #expect(result.warnings.map(\.code) == [.trueTypeMissingCharacters, .trueTypeKerningSkipped])
        #expect(result.warnings.first?.message.hasSuffix(", character 158 and 1025 more") == true, "\(result.warnings)")
        #expect(
            result.warnings.last?.message
                == "the face has kerning, but its 191 characters are more than the 190 whose pairs are read "
                + "(TrueTypeFontLoaderSettings.mostKernedCharacters); the font has none")
        options.mostKernedCharacters = 191
        let kerned = try #require(try await TrueTypeFixtures.load(TrueTypeFixtures.sampleFont, options).outcome.asset as? BitmapFont)
        #expect(kerned.kerningPairs.count > 100 && kerned.kerning(from: "A", to: "V") < 0)
    }

    @Test func charactersComeFromStringsAndRanges() {
        let characters = TrueTypeCharacters("cab").union(TrueTypeCharacters(ranges: ["d"..."f", "x"..."z", "\u{D7FF}"..."\u{E000}"]))
        #expect(characters.ranges == [97...102, 120...122, 0xD7FF...0xE000] && characters.count == 11)
        #expect(characters.scalars.map { String($0) }.joined() == "abcdefxyz\u{D7FF}\u{E000}")
        #expect(characters.contains("e") && !characters.contains("g") && TrueTypeCharacters.latin1.count == 191)
        #expect(
            TrueTypeCharacters.printableASCII == " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~")
    }

    @Test func progressMovesForwardWhileGlyphsRender() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
        let seen = Recorder<Double>()
        let options = AssetOptions().with(TrueTypeFontLoaderSettings.self, TrueTypeFontLoaderSettings(pixelSize: 48, characters: .latin1))
        let report = try await coordinator.start(
            [AssetRequest(path: TrueTypeFixtures.sampleFont, options: options)], options: PreloadOptions(progressInterval: .zero),
            hooks: PreloadHooks(onProgress: { seen.append($0.fractionCompleted) })
        ).finished()
        #expect(report.everythingLoaded)
        #expect(await seen.wait { $0.last == 1 })
        let fractions = seen.all
        #expect(fractions == fractions.sorted() && Set(fractions.filter { $0 > 0 && $0 < 1 }).count >= 5, "\(fractions)")
    }

    @Test func cancellingABatchStopsTheRendering() async throws {
        // 191 glyphs of 512 pixels: far longer than the moment the first progress cancels it.
        var options = TrueTypeFontLoaderSettings(pixelSize: 512, characters: .latin1)
        options.maxPageSize = 4096
        let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
        let request = AssetRequest(path: TrueTypeFixtures.sampleFont, options: AssetOptions().with(TrueTypeFontLoaderSettings.self, options))
        let report = try await coordinator.startCancelledAtFirstProgress([request]).finished()
        #expect(report.cancelled.count == 1 && report.wasCancelled && coordinator.assets.count == 0)
    }
}
