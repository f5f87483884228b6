import Preload
import PreloadJPEG
import Testing

/// EXIF orientation: left as stored by default, with a warning; applied on request, as Pillow's
/// `ImageOps.exif_transpose` turns it.
@Suite struct ExifOrientationTests {
    @Test(arguments: 1...8)
    func storedLayoutByDefaultWithAWarning(_ orientation: Int) throws {
        var warnings: [AssetWarning] = []
        let texture = try JPEGDecoder.decode(try JPEGFixtures.jpeg("exif-\(orientation)"), warn: { warnings.append($0) })
        #expect(texture.width == 13 && texture.height == 7)
        #expect(texture.pixels.array == (try JPEGFixtures.pillowPixels("exif-\(orientation)")))
        if orientation == 1 {
            #expect(warnings.isEmpty)
        } else {
            #expect(warnings.map(\.code) == [.jpegExifOrientation])
            #expect(warnings.first?.message.hasPrefix("EXIF orientation \(orientation) (") == true)
        }
    }

    @Test(arguments: 1...8)
    func appliedOnRequestAsPillowTurnsIt(_ orientation: Int) throws {
        var warnings: [AssetWarning] = []
        let options = JPEGLoaderSettings(appliesExifOrientation: true)
        let texture = try JPEGDecoder.decode(try JPEGFixtures.jpeg("exif-\(orientation)"), options: options, warn: { warnings.append($0) })
        let (width, height) = orientation >= 5 ? (7, 13) : (13, 7)
        #expect(texture.width == width && texture.height == height)
        #expect(texture.pixels.array == (try JPEGFixtures.pillowPixels("exif-\(orientation).upright")))
        #expect(warnings.isEmpty)
    }

    @Test func limitsApplyToTheTurnedImage() throws {
        // 13x7 stored, 7x13 upright: a 10-pixel width limit passes only when turned.
        let data = try JPEGFixtures.jpeg("exif-6")
        let narrow = ImageLimits(maxWidth: 10)
        #expect(JPEGFixtures.limitError(data, options: JPEGLoaderSettings(limits: narrow))?.category == .limitExceeded)
        #expect(try JPEGDecoder.decode(data, options: JPEGLoaderSettings(appliesExifOrientation: true, limits: narrow)).width == 7)
    }

    @Test func theParserReadsBothByteOrdersAndRefusesWhatItCannotBound() {
        func segment(_ bytes: [UInt8]) -> ExifOrientation? {
            bytes.withUnsafeBufferPointer { ExifOrientation(exifSegment: $0) }
        }
        let exif = Array("Exif\0\0".utf8)
        // One IFD entry: tag 0x0112, type SHORT, count 1, value 6.
        let little: [UInt8] = exif + [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]
        let big: [UInt8] = exif + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 8, 0, 0]
        #expect(segment(little) == .needsClockwiseTurn)
        #expect(segment(big) == .needsCounterclockwiseTurn)
        // Cut anywhere before the value's end (its field's last two bytes are padding).
        for cut in 0..<(little.count - 2) { #expect(segment(Array(little.prefix(cut))) == nil, "cut at \(cut)") }
        var outOfRange = little
        outOfRange[exif.count + 18] = 9
        #expect(segment(outOfRange) == nil)
        var manyEntries = little
        manyEntries[exif.count + 8] = 0xFF  // 255 entries claimed, one present
        #expect(segment(manyEntries) == .needsClockwiseTurn, "found before the claimed entries run past the end")
        var farOffset = little
        farOffset[exif.count + 7] = 0x7F  // IFD0 at 2 GiB
        #expect(segment(farOffset) == nil)
    }
}
