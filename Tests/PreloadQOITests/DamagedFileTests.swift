import Preload
import PreloadQOI
import Testing

/// Damaged twins of the fixtures and hostile headers: always a typed error (or, once every
/// pixel is decoded, a warning), never a crash, a hang or a partly decoded image.
@Suite struct DamagedFileTests {
    static let sprite = QOIFixtures.file("pillow-sprite")
    static let tile = QOIFixtures.file("reference-tile")

    @Test func emptyFileIsRejected() {
        #expect(QOIFixtures.decodeError([]) == .emptyFile)
        #expect(QOIDecodeError.emptyFile.category == .truncated)
    }

    @Test func wrongMagicIsNotQOI() {
        var damaged = Self.sprite
        damaged[3] = UInt8(ascii: "g")  // "qoig"
        #expect(QOIFixtures.decodeError(damaged) == .notQOI)
        #expect(QOIFixtures.decodeError(Array("GIF89a, not a QOI at all".utf8)) == .notQOI)
        #expect(QOIFixtures.decodeError([0x89, 0x50, 0x4E, 0x47]) == .notQOI)
        #expect(QOIFixtures.decodeError([0x71, 0x6F, 0x00]) == .notQOI, "a short file that is not the signature's start")
        #expect(QOIDecodeError.notQOI.category == .corrupt)
        #expect(QOIDecodeError.notQOI.description == "not a QOI file (no 'qoif' signature)")
    }

    /// Every cut before the last op fails as truncated, whatever op it cuts (one of every kind
    /// is in these files); a cut inside the end marker decodes every pixel, with a warning.
    @Test(arguments: ["pillow-sprite", "reference-tile", "pillow-every-op", "reference-every-op", "pillow-runs"])
    func everyCutFailsOrDecodesEveryPixel(name: String) throws {
        let file = QOIFixtures.file(name)
        let expected = QOIFixtures.expected(name)
        for length in 1..<(file.count - 8) {
            let error = QOIFixtures.decodeError(Array(file.prefix(length)))
            #expect(error?.category == .truncated, "\(name) cut at \(length): \(String(describing: error))")
            #expect(error?.description.hasPrefix("truncated QOI: ") == true)
        }
        for length in (file.count - 8)..<file.count {
            let (texture, warnings) = try QOIFixtures.decode(Array(file.prefix(length)))
            #expect(texture.pixels == expected, "\(name) cut at \(length)")
            #expect(warnings.map(\.code) == [.qoiNoEndMarker], "\(name) cut at \(length)")
        }
    }

    @Test func truncationSaysHowFarTheDataWent() {
        let cut = Array(Self.tile.prefix(Self.tile.count - 20))
        let error = QOIFixtures.decodeError(cut)
        guard case .truncated(let detail) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("the data ends after ") && detail.hasSuffix(" of 960 pixels (24x40)"), "\(detail)")
        #expect(QOIFixtures.decodeError(Array(Self.tile.prefix(10))) == .truncated("the header needs 14 bytes; the file has 10"))
    }

    @Test func channelsOtherThanThreeOrFourAreCorrupt() {
        for channels: UInt8 in [0, 1, 2, 5, 255] {
            var damaged = Self.sprite
            damaged[12] = channels
            let error = QOIFixtures.decodeError(damaged)
            #expect(error == .corrupt("the header says \(channels) channels; QOI allows 3 (RGB) or 4 (RGBA)"))
            #expect(error?.category == .corrupt)
        }
    }

    @Test func aZeroSideIsCorrupt() {
        #expect(
            QOIFixtures.decodeError(QOIFixtures.qoi(width: 0, height: 5, ops: []))
                == .corrupt("the header says 0x5 pixels; QOI images have at least one pixel"))
        #expect(QOIFixtures.decodeError(QOIFixtures.qoi(width: 5, height: 0, ops: []))?.category == .corrupt)
    }

    @Test func absurdSizesAreRefusedBeforeAnyPixelMemoryExists() {
        let biggest = QOIFixtures.qoi(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, ops: QOIFixtures.run(62))
        let error = QOIFixtures.limitError(biggest)
        #expect(error?.category == .limitExceeded)
        #expect(
            error?.description.hasPrefix("image too large: 4294967295x4294967295 needs more than 9223372036854775807 decoded bytes") == true,
            "\(String(describing: error))")
        // With every limit raised as far as it goes, a product that overflows is still refused.
        let unlimited = QOILoaderSettings(limits: ImageLimits(maxWidth: .max, maxHeight: .max, maxDecodedBytes: .max))
        let wide = QOIFixtures.qoi(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, ops: QOIFixtures.run(62))
        #expect(QOIFixtures.limitError(wide, options: unlimited)?.category == .limitExceeded)
        // Within those limits, a header far larger than its data fails as truncated, unallocated:
        // 2^31 - 1 by 2^20 pixels would be 8 PiB.
        let short = QOIFixtures.qoi(width: 0x7FFF_FFFF, height: 1 << 20, ops: QOIFixtures.run(62))
        let truncated = QOIFixtures.decodeError(short, options: unlimited)
        #expect(truncated?.category == .truncated)
        #expect(truncated?.description.contains("bytes of ops; the file has 9") == true, "\(String(describing: truncated))")
    }

    @Test func limitsAreConfigurable() throws {
        let width = 48, height = 48  // pillow-sprite
        #expect(QOIFixtures.limitError(Self.sprite, options: QOILoaderSettings(limits: ImageLimits(maxWidth: width - 1)))?.category == .limitExceeded)
        #expect(
            QOIFixtures.limitError(Self.sprite, options: QOILoaderSettings(limits: ImageLimits(maxHeight: height - 1)))?.category == .limitExceeded)
        let small = QOILoaderSettings(limits: ImageLimits(maxDecodedBytes: width * height * 4 - 1))
        #expect(QOIFixtures.limitError(Self.sprite, options: small)?.category == .limitExceeded)
        let exact = QOILoaderSettings(limits: ImageLimits(maxWidth: width, maxHeight: height, maxDecodedBytes: width * height * 4))
        #expect(try QOIDecoder.decode(Self.sprite, options: exact).pixels == QOIFixtures.expected("pillow-sprite"))
        #expect(ImageLimits().description == "32768x32768, 1073741824 bytes")
    }

    @Test func aMissingOrWrongEndMarkerIsAWarning() throws {
        let expected = QOIFixtures.expected("pillow-sprite")
        let (missing, missingWarnings) = try QOIFixtures.decode(Array(Self.sprite.dropLast(8)))
        #expect(missing.pixels == expected)
        #expect(missingWarnings == [AssetWarning(.qoiNoEndMarker, "the file ends at the last pixel, without the end marker")])
        var wrong = Self.sprite
        wrong[wrong.count - 1] = 2
        let (wrongTexture, wrongWarnings) = try QOIFixtures.decode(wrong)
        #expect(wrongTexture.pixels == expected)
        #expect(wrongWarnings == [AssetWarning(.qoiNoEndMarker, "the bytes after the last pixel are not the end marker; they were ignored")])
        let (_, cutWarnings) = try QOIFixtures.decode(Array(Self.sprite.dropLast(3)))
        #expect(cutWarnings == [AssetWarning(.qoiNoEndMarker, "the file ends inside the end marker, after the last pixel")])
        #expect(AssetWarning.Code.qoiNoEndMarker.rawValue == "qoi.no-end-marker")
    }

    @Test func dataAfterTheEndMarkerIsAWarning() throws {
        let (texture, warnings) = try QOIFixtures.decode(Self.sprite + [1, 2, 3])
        #expect(texture.pixels == QOIFixtures.expected("pillow-sprite"))
        #expect(warnings == [AssetWarning(.qoiTrailingData, "3 bytes after the end marker were ignored")])
        #expect(AssetWarning.Code.qoiTrailingData.rawValue == "qoi.trailing-data")
    }

    @Test func aRunPastTheLastPixelIsAWarning() throws {
        let file = QOIFixtures.qoi(width: 3, height: 1, ops: QOIFixtures.rgb(4, 5, 6) + QOIFixtures.run(10))
        let (texture, warnings) = try QOIFixtures.decode(file)
        #expect(texture.pixels == [4, 5, 6, 255, 4, 5, 6, 255, 4, 5, 6, 255])
        #expect(warnings == [AssetWarning(.qoiRunPastEnd, "the last run goes 8 pixels past the image's end; they were dropped")])
    }

    @Test func anUnknownColourSpaceIsAWarning() throws {
        var odd = Self.sprite
        odd[13] = 7
        let (texture, warnings) = try QOIFixtures.decode(odd)
        #expect(texture.pixels == QOIFixtures.expected("pillow-sprite"))
        #expect(warnings.map(\.code) == [.qoiUnknownColorspace])
    }

    /// QOI has no checksum: a flipped op byte changes pixels or the op count. Whatever it does,
    /// the decode gives a whole image or a typed error.
    @Test func flippedBytesNeverCrash() {
        for file in [Self.sprite, Self.tile] {
            for offset in QOIHeader.length..<file.count {
                for flip: UInt8 in [0xFF, 0x40, 0x01] {
                    var damaged = file
                    damaged[offset] ^= flip
                    do {
                        let texture = try QOIDecoder.decode(damaged)
                        #expect(texture.pixels.count == texture.width * texture.height * 4)
                    } catch let error as QOIDecodeError {
                        #expect(error.category == .truncated, "\(offset) ^ \(flip): \(error)")
                    } catch {
                        Issue.record("\(offset) ^ \(flip): \(error)")
                    }
                }
            }
        }
    }

    @Test func cancellationStopsADecodeAfterOneChunk() throws {
        let big = QOIFixtures.ramp(width: 1024, height: 1024)
        var cancelled = false
        var reports: [Double] = []
        #expect(throws: CancellationError.self) {
            _ = try QOIDecoder.decode(
                big, isCancelled: { cancelled },
                progress: { fraction in
                    reports.append(fraction)
                    cancelled = true
                })
        }
        // One chunk (16384 pixels: 16 rows here) ran before the stop was noticed.
        #expect(reports == [16.0 / 1024])
        let texture = try QOIDecoder.decode(big)
        // Pixel k is k + 1 steps of +1 from black, modulo 256.
        #expect(texture.rgba8(x: 4, y: 0) == SIMD4(5, 5, 5, 255) && texture.rgba8(x: 254, y: 0) == SIMD4(255, 255, 255, 255))
        #expect(texture.rgba8(x: 1023, y: 1023) == SIMD4(0, 0, 0, 255))
    }
}
