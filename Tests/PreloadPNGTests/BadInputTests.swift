import PreloadAuthoring
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// Damaged, hostile and oversized input: always a typed error, never a crash or a hang.
@Suite struct BadInputTests {
    static let width = 40, height = 30
    static let pixels = PNGFixture.noise(width: width, height: height, seed: 9)
    static let valid = PNGFixture.rgba(width: width, height: height, pixels: pixels)

    func decodeError(_ data: [UInt8], options: PNGLoaderSettings = PNGLoaderSettings()) -> PNGDecodeError? {
        do {
            _ = try PNGDecoder.decode(data, options: options)
            return nil
        } catch {
            return error as? PNGDecodeError
        }
    }

    /// The limit error `data` fails with (the one every image decoder throws), or `nil`.
    func limitError(_ data: [UInt8], options: PNGLoaderSettings = PNGLoaderSettings()) -> ImageLimitExceeded? {
        thrownError(ImageLimitExceeded.self) { _ = try PNGDecoder.decode(data, options: options) }
    }

    @Test func theFixtureItselfDecodes() throws {
        let texture = try PNGDecoder.decode(Self.valid)
        #expect(texture.width == Self.width && texture.height == Self.height && texture.pixels == Self.pixels)
    }

    /// Sides of 2³² - 1 each: the size estimate made while planning (for progress by decoded
    /// bytes and the memory budget) saturates instead of trapping, and the file fails by name.
    @Test func sidesWhoseProductOverflowsFailTyped() async throws {
        let directory = try TemporaryDirectory()
        let hostile = try directory.write("huge.png", PNGFixture.headerOnly(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
        let report = try await coordinator.preload(
            [AssetRequest(path: hostile)], options: PreloadOptions(progressWeighting: .decodedBytes, memoryBudget: 64 << 20))
        // libpng itself refuses sides past 2³¹ - 1 ("PNG unsigned integer out of range").
        #expect(report.errors.first?.path == hostile && report.errors.first?.category == .corrupt, "\(report.errors)")
    }

    @Test func emptyFileIsRejected() {
        #expect(decodeError([]) == .emptyFile)
        #expect(PNGDecodeError.emptyFile.category == .truncated)
    }

    @Test func nonPNGIsRejected() {
        #expect(decodeError(Array("GIF89a......".utf8)) == .notPNG)
        #expect(decodeError([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00, 1, 2, 3]) == .notPNG)
    }

    /// Cut the file at every interesting place: inside the signature, inside IHDR, inside the
    /// image data, inside the last IDAT's CRC, inside IEND, and one byte short of the end. (Cut
    /// just before IEND, it loads with a warning: `LenientPNGTests`.)
    @Test(arguments: [3, 8, 20, 33, 60, 200, valid.count - 14, valid.count - 6, valid.count - 1])
    func truncatedFileIsRejected(length: Int) {
        let error = decodeError(Array(Self.valid.prefix(length)))
        #expect(error?.category == .truncated, "cut at \(length): \(String(describing: error))")
        #expect(error?.description.contains("truncated") == true)
    }

    @Test func flippedImageDataByteIsCaught() {
        var damaged = Self.valid
        damaged[33 + 8 + 20] ^= 0xFF  // inside IDAT's compressed data
        let error = decodeError(damaged)
        #expect(error?.category == .corrupt)
        // zlib notices before the chunk CRC is reached: "IDAT: incorrect data check" or similar.
        #expect(error?.description.hasPrefix("corrupt PNG: IDAT") == true, "\(String(describing: error))")
    }

    @Test func damagedChunkChecksumIsCaught() {
        var damaged = Self.valid
        damaged[29] ^= 0x01  // the last byte of IHDR's CRC
        let error = decodeError(damaged)
        #expect(error?.category == .corrupt)
        #expect(error?.description.contains("CRC") == true, "\(String(describing: error))")
    }

    @Test func hugeHeaderIsRefusedBeforeAnyPixelMemoryExists() {
        // 100000 x 100000 x 4 = 40 GB: decoding would have to allocate it first.
        let error = limitError(PNGFixture.headerOnly(width: 100_000, height: 100_000))
        #expect(error?.category == .limitExceeded)
        #expect(error?.description.contains("100000x100000") == true, "\(String(describing: error))")
    }

    /// With every limit raised as far as it goes, a 16-bit header of (2^31 - 1) x (2^30 + 1)
    /// needs 2^64 + 2^33 - 8 bytes; computed in 64 bits that wrapped to 8 GB, which passed the
    /// limit: the decoder allocated it and ground for 54 s before libpng ran out of image data
    /// (with enough data, the first 17 GB row would have overrun the buffer).
    @Test func aDecodedSizePast64BitsIsRefusedNotWrapped() {
        let header =
            PNGFixture.signature + PNGFixture.chunk("IHDR", PNGFixture.ihdr(width: (1 << 31) - 1, height: (1 << 30) + 1, bitDepth: 16, colorType: 6))
            + PNGFixture.chunk("IDAT", PNGFixture.deflate([0, 0, 0, 0, 0], level: 6)) + PNGFixture.chunk("IEND", [])
        let unlimited = PNGLoaderSettings(keepsSixteenBitSamples: true, limits: ImageLimits(maxWidth: .max, maxHeight: .max, maxDecodedBytes: .max))
        let error = limitError(header, options: unlimited)
        #expect(error?.category == .limitExceeded)
        #expect(error?.description.contains("needs more than 9223372036854775807 decoded bytes") == true, "\(String(describing: error))")
    }

    @Test func limitsAreConfigurable() throws {
        let narrow = PNGLoaderSettings(limits: ImageLimits(maxWidth: Self.width - 1))
        #expect(limitError(Self.valid, options: narrow)?.category == .limitExceeded)
        let short = PNGLoaderSettings(limits: ImageLimits(maxHeight: Self.height - 1))
        #expect(limitError(Self.valid, options: short)?.category == .limitExceeded)
        let small = PNGLoaderSettings(limits: ImageLimits(maxDecodedBytes: Self.width * Self.height * 4 - 1))
        #expect(limitError(Self.valid, options: small)?.category == .limitExceeded)
        let exact = PNGLoaderSettings(
            limits: ImageLimits(maxWidth: Self.width, maxHeight: Self.height, maxDecodedBytes: Self.width * Self.height * 4))
        #expect(try PNGDecoder.decode(Self.valid, options: exact).pixels == Self.pixels)
        // libpng's own 1,000,000-pixel default does not preempt a generous limit.
        let wide = PNGFixture.headerOnly(width: 1_500_000, height: 1)
        let roomy = PNGLoaderSettings(limits: ImageLimits(maxWidth: 2_000_000, maxDecodedBytes: 1 << 30))
        #expect(limitError(wide, options: roomy) == nil)
        #expect(decodeError(wide, options: roomy) != nil)
    }

    @Test func cancellationStopsADecodeWithinAFewRows() throws {
        let side = 1024
        let gradient = (0..<(side * side * 4)).map { UInt8(truncatingIfNeeded: $0 / 4 + $0 % 7) }
        let big = PNGFixture.rgba(width: side, height: side, pixels: gradient, level: 1)
        #expect(try PNGDecoder.decode(big).pixels == gradient)

        // libpng's rows (the fast path's: FastPathTests.aLargeImageReportsProgressAndStopsWithinABandOfRows).
        var libpng = PNGLoaderSettings()
        libpng.settings.path = .libpngOnly
        var cancelled = false
        var reports: [Double] = []
        #expect(throws: CancellationError.self) {
            _ = try PNGDecoder.decode(
                big, options: libpng, isCancelled: { cancelled },
                progress: { fraction in
                    reports.append(fraction)
                    cancelled = true
                })
        }
        // One chunk of rows (64 KiB of output: 16 rows here) ran before the stop was noticed.
        #expect(reports.count == 1)
        #expect(reports[0] * Double(side) <= 16)
    }
}

@Suite struct PNGEncoderTests {
    @Test func encodedPixelsDecodeBackUnchanged() throws {
        let pixels = PNGFixture.noise(width: 37, height: 11, seed: 8)
        let texture = Texture(width: 37, height: 11, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        for level in [0, 6, 9] {
            let encoded = try PNGEncoder.encode(texture, compressionLevel: level)
            #expect(encoded.starts(with: PNGDecoder.signature))
            #expect(try PNGDecoder.decode(encoded).pixels == pixels, "level \(level)")
        }
    }

    @Test func onlyRGBA8CanBeEncoded() {
        let deep = Texture(width: 1, height: 1, pixelFormat: .rgba16, alphaMode: .straight, pixels: [UInt8](repeating: 1, count: 8))
        #expect(throws: PNGEncoder.EncodeError.self) { try PNGEncoder.encode(deep) }
    }
}
