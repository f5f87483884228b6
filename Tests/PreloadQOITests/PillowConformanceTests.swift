import Preload
import PreloadQOI
import Testing

/// Files from Pillow's encoder and the reference encoder (qoi.h), decoded pixel by pixel
/// against Pillow's decode of each (which the fixture script checked against qoi.h's).
@Suite struct PillowConformanceTests {
    @Test func fixturesAreAllThere() {
        #expect(QOIFixtures.names.count == 9)
        #expect(QOIFixtures.names.filter { $0.hasPrefix("pillow-") }.count == 5)
        #expect(QOIFixtures.names.filter { $0.hasPrefix("reference-") }.count == 4)
    }

    @Test(arguments: QOIFixtures.names)
    func decodesExactlyAsPillowDoes(name: String) throws {
        let file = QOIFixtures.file(name)
        let (texture, warnings) = try QOIFixtures.decode(file)
        let header = try #require(QOIHeader(file))
        #expect(texture.width == header.width && texture.height == header.height)
        #expect(texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        #expect(texture.pixels == QOIFixtures.expected(name), "\(name): \(firstDifference(texture.pixels.array, QOIFixtures.expected(name)))")
        #expect(warnings.isEmpty, "\(name): \(warnings)")
    }

    @Test func rgbFilesBecomeOpaqueRGBA() throws {
        for name in ["pillow-tile", "reference-tile", "pillow-pixel"] {
            let file = QOIFixtures.file(name)
            #expect(file[12] == 3, "\(name) is an RGB file")
            let texture = try QOIDecoder.decode(file)
            #expect(stride(from: 3, to: texture.pixels.count, by: 4).allSatisfy { texture.pixels[$0] == 255 }, "\(name)")
        }
        #expect(try QOIDecoder.decode(QOIFixtures.file("pillow-pixel")).pixels == [7, 8, 9, 255])
    }

    /// An RGB file's ops may still change alpha (QOI_OP_RGBA): the index hashes with it, the
    /// output does not show it, as Pillow's RGB image does not.
    @Test func anRGBFileKeepsAlphaForTheIndexOnly() throws {
        // (1,2,3,0) lands at index (3 + 10 + 21) % 64 = 34; QOI_OP_INDEX 34 reads it back.
        let ops = QOIFixtures.rgba(1, 2, 3, 0) + QOIFixtures.rgb(9, 9, 9) + [34]
        let rgb = try QOIDecoder.decode(QOIFixtures.qoi(width: 3, height: 1, channels: 3, ops: ops))
        #expect(rgb.pixels == [1, 2, 3, 255, 9, 9, 9, 255, 1, 2, 3, 255])
        let rgba = try QOIDecoder.decode(QOIFixtures.qoi(width: 3, height: 1, channels: 4, ops: ops))
        #expect(rgba.pixels == [1, 2, 3, 0, 9, 9, 9, 0, 1, 2, 3, 0])
    }

    /// Each op by hand, with the values the spec gives, wrapping around 0 and 255.
    @Test func everyOpFollowsTheSpec() throws {
        var ops = QOIFixtures.rgba(250, 1, 128, 200)  // (250, 1, 128, 200)
        ops += [0x40 | 3 << 4 | 0 << 2 | 2]  // DIFF +1, -2, 0: (251, 255, 128, 200)
        ops += [0x80 | 40, 0x0F << 4 | 0x00]  // LUMA dg +8, dr - dg +7, db - dg -8: (10, 7, 128, 200)
        ops += QOIFixtures.run(3)  // three more
        ops += QOIFixtures.rgb(0, 0, 0)  // (0, 0, 0, 200)
        // The first pixel hashes to (250*3 + 1*5 + 128*7 + 200*11) % 64 = 3851 % 64 = 11.
        ops += [11]
        let texture = try QOIDecoder.decode(QOIFixtures.qoi(width: 8, height: 1, ops: ops))
        let expected: [[UInt8]] = [
            [250, 1, 128, 200], [251, 255, 128, 200], [10, 7, 128, 200], [10, 7, 128, 200], [10, 7, 128, 200], [10, 7, 128, 200],
            [0, 0, 0, 200], [250, 1, 128, 200],
        ]
        #expect(texture.pixels.array == expected.flatMap { $0 })
    }

    /// The previous pixel starts as (0, 0, 0, 255); the index starts all zero. A run at the start
    /// repeats (0, 0, 0, 255) and, as qoi.h's decoder does, puts it in the index (at 53): an
    /// INDEX op reads it back. (Pillow's decoder does not index run pixels and reads (0, 0, 0, 0)
    /// here; no encoder writes this, as an encoder only indexes pixels it wrote as non-runs.)
    @Test func startStateAndRunPixelsInTheIndexAreQOIHs() throws {
        let ops = QOIFixtures.run(1) + [0] + QOIFixtures.rgb(10, 20, 30) + [53]
        let texture = try QOIDecoder.decode(QOIFixtures.qoi(width: 4, height: 1, ops: ops))
        // INDEX 0 reads the zero entry, so the RGB op that follows keeps alpha 0.
        #expect(texture.pixels == [0, 0, 0, 255, 0, 0, 0, 0, 10, 20, 30, 0, 0, 0, 0, 255])
    }

    @Test func premultipliedAlphaMultipliesColourByAlpha() throws {
        let file = QOIFixtures.file("pillow-every-op")  // one row in six ramps alpha under a colour
        let straight = try QOIDecoder.decode(file).pixels.array
        let premultiplied = try QOIDecoder.decode(file, options: QOILoaderSettings(alphaMode: .premultiplied))
        #expect(premultiplied.alphaMode == .premultiplied)
        let expected = stride(from: 0, to: straight.count, by: 4).flatMap { offset -> [UInt8] in
            let alpha = UInt32(straight[offset + 3])
            return (0..<3).map { UInt8((UInt32(straight[offset + $0]) * alpha + 127) / 255) } + [UInt8(alpha)]
        }
        #expect(premultiplied.pixels == expected)
        let changed = zip(straight, expected).filter { $0 != $1 }.count
        #expect(changed > 100, "the file has translucent colour: \(changed) samples change")
    }

    @Test func largeImagesDecodeIntoPooledMemoryInSeveralChunks() throws {
        // 300 x 300: five chunks of 16384 pixels and a part; runs cross the chunks' edges.
        var ops: [UInt8] = []
        for row in 0..<300 { ops += QOIFixtures.rgb(UInt8(row % 256), 0, 0) + [62, 62, 62, 62, 51].flatMap(QOIFixtures.run) }
        var reports: [Double] = []
        let texture = try QOIDecoder.decode(QOIFixtures.qoi(width: 300, height: 300, ops: ops), progress: { reports.append($0) })
        #expect(texture.pixels.isPooled)
        #expect(reports.count == 5 && reports == reports.sorted())
        for row in [0, 54, 55, 299] {
            #expect(
                texture.rgba8(x: 0, y: row) == SIMD4(UInt8(row % 256), 0, 0, 255)
                    && texture.rgba8(x: 299, y: row) == SIMD4(UInt8(row % 256), 0, 0, 255))
        }
    }

    @Test func headerIsReadWithoutDecoding() throws {
        let header = try #require(QOIHeader(QOIFixtures.file("reference-sprite")))
        #expect(header == QOIHeader(QOIFixtures.file("reference-sprite")))
        #expect(header.width == 40 && header.height == 56 && header.channels == 4 && header.colorspace == 0)
        #expect(header.decodedBytes == 40 * 56 * 4)
        #expect(QOIHeader(Array(QOIFixtures.file("reference-sprite").prefix(13))) == nil)
        #expect(QOILoader().estimatedDecodedBytes(header: Array(QOIFixtures.file("pillow-sprite").prefix(14))) == 48 * 48 * 4)
    }
}

/// Where two byte arrays first differ, for a failure message.
func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String {
    guard actual.count == expected.count else { return "\(actual.count) bytes, expected \(expected.count)" }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return "same" }
    return "pixel \(index / 4), channel \(index % 4): \(actual[index]), expected \(expected[index])"
}
