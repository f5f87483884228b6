import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// What browsers, Pillow and libspng open loads, with a warning that strict mode turns into a
/// failure; damaged data still fails whatever the mode.
@Suite struct LenientPNGTests {
    static let width = 24, height = 10
    static let pixels = PNGFixture.noise(width: width, height: height, seed: 13)
    static let header = PNGFixture.signature + PNGFixture.chunk("IHDR", PNGFixture.ihdr(width: width, height: height, bitDepth: 8, colorType: 6))
    static let imageData: [UInt8] = {
        var raw: [UInt8] = []
        for row in 0..<height { raw += [0] + pixels[(row * width * 4)..<((row + 1) * width * 4)] }
        return PNGFixture.deflate(raw, level: 9)
    }()
    static let idat = PNGFixture.chunk("IDAT", imageData)
    static let iend = PNGFixture.chunk("IEND", [])
    static let wellFormed = header + idat + iend

    /// Decodes `data`, returning the texture and the warnings it was forgiven.
    func decode(_ data: [UInt8]) throws -> (Texture, [AssetWarning]) {
        var warnings: [AssetWarning] = []
        let texture = try PNGDecoder.decode(data, warn: { warnings.append($0) })
        return (texture, warnings)
    }

    func decodeError(_ data: [UInt8]) -> PNGDecodeError? {
        do {
            _ = try PNGDecoder.decode(data)
            return nil
        } catch {
            return error as? PNGDecodeError
        }
    }

    @Test func theWellFormedTwinHasNoWarnings() throws {
        let (texture, warnings) = try decode(Self.wellFormed)
        #expect(texture.pixels == Self.pixels && warnings.isEmpty)
    }

    @Test func aFileEndingAfterItsLastIDATLoadsWithAWarning() throws {
        let (texture, warnings) = try decode(Self.header + Self.idat)
        #expect(texture.pixels == Self.pixels)
        #expect(warnings.map(\.code) == [.pngNoEnd])
    }

    @Test func anAncillaryChunkAfterTheImageDataAndNoIENDLoads() throws {
        let (texture, warnings) = try decode(Self.header + Self.idat + PNGFixture.chunk("tEXt", Array("Comment\0hi".utf8)))
        #expect(texture.pixels == Self.pixels && warnings.map(\.code) == [.pngNoEnd])
    }

    @Test func imageDataSplitOverSeveralIDATsLoadsWithoutIEND() throws {
        let half = Self.imageData.count / 2
        let split = PNGFixture.chunk("IDAT", Array(Self.imageData[..<half])) + PNGFixture.chunk("IDAT", Array(Self.imageData[half...]))
        let (texture, warnings) = try decode(Self.header + split)
        #expect(texture.pixels == Self.pixels && warnings.map(\.code) == [.pngNoEnd])
    }

    @Test func aBadCRCOnAnAncillaryChunkLoadsWithAWarning() throws {
        var text = PNGFixture.chunk("tEXt", Array("Comment\0hi".utf8))
        text[text.count - 1] ^= 0xFF
        let (texture, warnings) = try decode(Self.header + text + Self.idat + Self.iend)
        #expect(texture.pixels == Self.pixels)
        #expect(warnings.map(\.code) == [.pngAncillaryCRC] && warnings.first?.message.contains("tEXt") == true)
    }

    /// The data-damage twins of the forgiven files all still fail.
    @Test func damagedDataStillFails() {
        // The last IDAT cut inside its CRC, with no IEND.
        #expect(decodeError(Self.header + Self.idat.dropLast(2))?.category == .truncated)
        // The last IDAT's CRC wrong, with no IEND.
        var badCRC = Self.idat
        badCRC[badCRC.count - 1] ^= 0xFF
        #expect(decodeError(Self.header + badCRC)?.description.contains("CRC") == true)
        // The zlib stream cut before its end (its Adler-32 missing), the chunk itself whole.
        let unended = PNGFixture.chunk("IDAT", Array(Self.imageData.dropLast(4)))
        #expect(decodeError(Self.header + unended)?.category != nil)
        #expect(decodeError(Self.header + unended + Self.iend)?.category == .corrupt)
        // Rows missing.
        let short = PNGFixture.chunk("IDAT", PNGFixture.deflate([0] + Array(Self.pixels.prefix(Self.width * 4)), level: 9))
        #expect(decodeError(Self.header + short)?.category != nil)
        // A chunk after the image data cut short (IEND's type half there).
        #expect(decodeError(Self.header + Self.idat + Self.iend.prefix(6))?.category == .truncated)
        // The Adler-32 wrong.
        var adler = Self.imageData
        adler[adler.count - 1] ^= 0xFF
        #expect(decodeError(Self.header + PNGFixture.chunk("IDAT", adler))?.category == .corrupt)
    }

    @Test func aThrowingWarnStopsTheDecode() {
        struct Refused: Error {}
        #expect(throws: Refused.self) { try PNGDecoder.decode(Self.header + Self.idat, warn: { _ in throw Refused() }) }
    }

    @Test func theCoordinatorRecordsTheWarningAndStrictModeFailsTheAsset() async throws {
        let directory = try TemporaryDirectory()
        let forgiven = try directory.write("no-iend.png", Self.header + Self.idat)
        let clean = try directory.write("clean.png", Self.wellFormed)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
        let requests = [AssetRequest(path: forgiven), AssetRequest(path: clean)]

        let lenient = try await coordinator.start(requests).finished()
        #expect(lenient.everythingLoaded)
        #expect(lenient.results[0].warnings.map(\.code) == [.pngNoEnd] && lenient.results[1].warnings.isEmpty)
        #expect(lenient.warned.map(\.request.path) == [forgiven])
        #expect((lenient.results[0].outcome.asset as? Texture).map { $0.pixels == Self.pixels } == true)

        let strict = try await coordinator.start(requests, options: PreloadOptions(isStrict: true)).finished()
        let error = try #require(strict.results[0].outcome.error)
        #expect(error.category == .strict && error.path == forgiven && error.reason.contains("no IEND"))
        #expect((error.underlying as? StrictWarning)?.warning.code == .pngNoEnd)
        #expect(strict.results[1].outcome.isLoaded, "the clean file still loads")
    }
}
