import Preload
import PreloadJPEG
import PreloadTestSupport
import Testing

/// Damaged twins of the fixtures fail with a typed error naming the cause; a cut file never
/// yields an image (libjpeg would pad it with grey and only warn).
@Suite struct DamagedFileTests {
    static let cutFixtures = [
        "pillow-420", "pillow-progressive-420", "pillow-grey", "pillow-cmyk", "cjpeg-restart", "cjpeg-arithmetic",
        "cjpeg-411", "ycck", "exif-6",
    ]

    @Test(arguments: cutFixtures)
    func everyCutFailsAsTruncated(_ name: String) throws {
        let whole = try JPEGFixtures.jpeg(name)
        var categories: [AssetError.Category: Int] = [:]
        for length in 3..<whole.count {  // from just after SOI to a file missing only its EOI's last byte
            let error = JPEGFixtures.decodeError(Array(whole.prefix(length)))
            #expect(error != nil, "\(name) cut to \(length) of \(whole.count) bytes decoded")
            categories[error?.category ?? .other, default: 0] += 1
        }
        #expect(categories == [.truncated: whole.count - 3], "\(name): \(categories)")
    }

    @Test func aFileWithoutItsEOIFailsAsPillowFailsIt() throws {
        let whole = try JPEGFixtures.jpeg("pillow-444")
        #expect(whole.suffix(2) == [0xFF, 0xD9])
        let error = JPEGFixtures.decodeError(Array(whole.dropLast(2)))
        #expect(error == .truncated("the file ends before the JPEG data does"))
        #expect(error?.description == "truncated JPEG: the file ends before the JPEG data does")
    }

    @Test func aProgressiveFileCutBetweenScansFails() throws {
        // Each cut leaves whole scans: libjpeg would show a blurrier image and say nothing.
        let whole = try JPEGFixtures.jpeg("cjpeg-progressive-444")
        let scans = JPEGFixtures.markers(in: whole).filter { $0.code == 0xDA }.map(\.offset)
        #expect(scans.count >= 6)
        for start in scans.dropFirst() {
            #expect(JPEGFixtures.decodeError(Array(whole.prefix(start)))?.category == .truncated, "cut before the scan at \(start)")
        }
    }

    @Test func aMarkerInsideTheScanIsAPrematureEndOfItsData() throws {
        var data = try JPEGFixtures.jpeg("pillow-420")
        let scan = try #require(JPEGFixtures.markers(in: data).last { $0.code == 0xDA }).offset
        let middle = (scan + data.count) / 2
        data[middle] = 0xFF
        data[middle + 1] = 0xD9
        #expect(JPEGFixtures.decodeError(data) == .corrupt("Corrupt JPEG data: premature end of data segment"))
    }

    @Test func aWrongRestartMarkerFails() throws {
        var data = try JPEGFixtures.jpeg("cjpeg-restart")
        let restarts = JPEGFixtures.markers(in: data).filter { (0xD0...0xD7).contains($0.code) }
        #expect(restarts.map(\.code) == [0xD0, 0xD1])
        data[restarts[0].offset + 1] = 0xD5
        let error = try #require(JPEGFixtures.decodeError(data))
        #expect(error.category == .corrupt && error.description.contains("RST0"), "\(error)")
    }

    @Test func bytesLeftOverInsideTheScansMeanDamagedData() throws {
        let data = try JPEGFixtures.jpeg("pillow-444")
        let junk = [UInt8](repeating: 0x55, count: 64)
        let error = try #require(JPEGFixtures.decodeError(data.dropLast(2) + junk + [0xFF, 0xD9]))
        #expect(error.category == .corrupt && error.description.contains("extraneous bytes"), "\(error)")
    }

    @Test func bytesBetweenHeaderSegmentsLoadWithAWarning() throws {
        let data = try JPEGFixtures.jpeg("pillow-420")
        let quantization = try #require(JPEGFixtures.markers(in: data).first { $0.code == 0xDB }).offset
        let padded = Array(data[..<quantization]) + [0x00, 0x11, 0x22] + Array(data[quantization...])
        var warnings: [AssetWarning] = []
        let texture = try JPEGDecoder.decode(padded, warn: { warnings.append($0) })
        #expect(texture.pixels.array == (try JPEGFixtures.pillowPixels("pillow-420")))
        #expect(warnings.map(\.code) == [.jpegExtraneousBytes])
        #expect(warnings.first?.message.contains("3 extraneous bytes before marker 0xdb") == true, "\(warnings)")
    }

    @Test func notJPEGsAndEmptyFilesAreToldApart() {
        #expect(JPEGFixtures.decodeError([]) == .emptyFile)
        #expect(JPEGFixtures.decodeError(Array("not a jpeg".utf8)) == .notJPEG)
        #expect(JPEGFixtures.decodeError([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .notJPEG)
        #expect(JPEGFixtures.decodeError([0xFF, 0xD8]) == .truncated("the file ends inside the SOI marker"))
        #expect(JPEGFixtures.decodeError([0xFF])?.category == .truncated)
        #expect(JPEGDecodeError.notJPEG.description == "not a JPEG file (no SOI marker)")
    }

    /// The offset of the fields of the first frame header (SOF) in `data`: precision, height,
    /// width, components.
    func frameFields(_ data: [UInt8]) throws -> Int {
        try #require(JPEGFixtures.markers(in: data).first { $0.code == 0xC0 || $0.code == 0xC2 }).offset + 4
    }

    @Test func twelveBitAndLosslessDataAreUnsupported() throws {
        let data = try JPEGFixtures.jpeg("pillow-444")
        let fields = try frameFields(data)
        var twelveBit = data
        twelveBit[fields] = 12
        #expect(JPEGFixtures.decodeError(twelveBit) == .unsupported("Unsupported JPEG data precision 12"))
        var lossless = data
        lossless[fields - 3] = 0xC3
        #expect(JPEGFixtures.decodeError(lossless) == .unsupported("Unsupported JPEG process: SOF type 0xc3"))
        var noHeight = data  // the height would come from a DNL marker
        noHeight[fields + 1] = 0
        noHeight[fields + 2] = 0
        #expect(JPEGFixtures.decodeError(noHeight)?.category == .unsupported)
    }

    @Test func limitsAreCheckedBeforeAnyPixelMemoryExists() throws {
        var data = try JPEGFixtures.jpeg("pillow-444")
        let fields = try frameFields(data)
        data.replaceSubrange((fields + 1)...(fields + 4), with: [0xFD, 0xE8, 0xFD, 0xE8])  // 65000 x 65000
        #expect(
            JPEGFixtures.limitError(data)?.description
                == "image too large: 65000x65000 needs 16900000000 decoded bytes; the limits are 32768x32768, 1073741824 bytes")
        let valid = try JPEGFixtures.jpeg("pillow-444")
        let exact = ImageLimits(maxWidth: 61, maxHeight: 37, maxDecodedBytes: 61 * 37 * 4)
        #expect(try JPEGDecoder.decode(valid, options: JPEGLoaderSettings(limits: exact)).width == 61)
        for tight in [
            ImageLimits(maxWidth: 60), ImageLimits(maxHeight: 36), ImageLimits(maxDecodedBytes: 61 * 37 * 4 - 1),
        ] {
            #expect(JPEGFixtures.limitError(valid, options: JPEGLoaderSettings(limits: tight))?.category == .limitExceeded)
        }
    }

    @Test func moreThanFiveHundredScansAreRefused() throws {
        // 507 valid scans of an 8x8 image: each scan is another pass over the whole image.
        let error = JPEGFixtures.decodeError(try JPEGFixtures.bytes("many-scans.jpg"))
        #expect(error == .tooLarge("more than 500 scans"))
        #expect(error?.category == .limitExceeded)
    }

    @Test(arguments: ["pillow-420", "pillow-progressive-420", "cjpeg-restart", "cjpeg-arithmetic", "pillow-cmyk"])
    func corruptedBytesNeverCrashAndFailByName(_ name: String) throws {
        // A flipped bit in a coefficient is undetectable in JPEG (the pixels just change), so
        // this asserts what can be: a typed error or a whole image, never a crash.
        let whole = try JPEGFixtures.jpeg(name)
        var generator = SeededRandom(seed: UInt64(whole.count))
        for _ in 0..<300 {
            var damaged = whole
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                damaged[2 + Int(generator.next() % UInt64(whole.count - 2))] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            }
            do {
                let texture = try JPEGDecoder.decode(damaged, options: JPEGLoaderSettings(limits: ImageLimits(maxWidth: 4096, maxHeight: 4096)))
                #expect(texture.pixels.count == texture.width * texture.height * 4)
            } catch let error as JPEGDecodeError {
                #expect(!error.description.isEmpty)
            } catch let error as ImageLimitExceeded {
                #expect(error.category == .limitExceeded)
            }
        }
    }
}
