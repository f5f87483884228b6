import Preload
import Testing

@testable import PreloadGPU

@Suite struct DXTEncoderTests {
    /// 2 pixels short of whole blocks across and 1 down: the edge blocks repeat the edge pixels.
    static let picture = GPUFixtures.picture(width: 18, height: 11)

    /// `image`'s pixels as the blocks of a 4x4-block format cover them, edges repeated: for each
    /// block, its 16 pixels, row after row.
    static func blockPixels(_ image: RGBAImage) -> [[[UInt8]]] {
        var blocks: [[[UInt8]]] = []
        for row in 0..<(image.height + 3) / 4 {
            for column in 0..<(image.width + 3) / 4 {
                blocks.append(
                    (0..<16).map { pixel in
                        let x = min(column * 4 + pixel % 4, image.width - 1), y = min(row * 4 + pixel / 4, image.height - 1)
                        return Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4])
                    })
            }
        }
        return blocks
    }

    /// The root mean square difference of `decoded` from `expected`'s samples `channel` of each block.
    static func error(_ expected: [[[UInt8]]], channel: Int, _ decoded: (Int) -> [Int]) -> Double {
        var squares = 0.0
        for (index, block) in expected.enumerated() {
            for (pixel, value) in decoded(index).enumerated() {
                let difference = Double(value) - Double(block[pixel][channel])
                squares += difference * difference
            }
        }
        return (squares / Double(expected.count * 16)).squareRoot()
    }

    @Test(.enabled(if: GPUFixtures.hasSTB, "needs libstb0"), arguments: DXTEncoder.Format.allCases)
    func blocksCoverTheImage(format: DXTEncoder.Format) throws {
        let blocks = try DXTEncoder(format: format).encode(Self.picture)
        #expect(blocks.count == 5 * 3 * format.pixelFormat.bytesPerBlock)
        #expect(blocks.count == format.pixelFormat.byteCount(width: 18, height: 11))
        // Rows of blocks shared among threads: the same bytes.
        #expect(try DXTEncoder(format: format, threadCount: 3).encode(Self.picture) == blocks)
        #expect(try DXTEncoder(format: format).encode(RGBAImage(width: 7, height: 0, pixels: [])).isEmpty)
    }

    @Test(.enabled(if: GPUFixtures.hasSTB, "needs libstb0"))
    func bc1KeepsTheColourAndDropsAlpha() throws {
        let expected = Self.blockPixels(Self.picture)
        let blocks = try DXTEncoder(format: .bc1).encode(Self.picture)
        for channel in 0..<3 {
            let error = Self.error(expected, channel: channel) { ReferenceBlockDecoding.bc1(blocks, at: $0 * 8).map { $0[channel] } }
            // Red 13.3 and green 10.3 with libstb0 0.0~git20220908: four colours on a line cannot
            // follow red across and green down; a wrong channel or block order is over 60.
            #expect(error < 16, "channel \(channel): RMS \(error)")
        }
        // Opaque: four-colour mode in every block (the first endpoint above the second, or both equal and all indices 0).
        for block in 0..<15 {
            let first = Int(blocks[block * 8]) | Int(blocks[block * 8 + 1]) << 8,
                second = Int(blocks[block * 8 + 2]) | Int(blocks[block * 8 + 3]) << 8
            #expect(first > second || (first == second && blocks[block * 8 + 4..<block * 8 + 8].allSatisfy { $0 == 0 }), "block \(block)")
        }
    }

    @Test(.enabled(if: GPUFixtures.hasSTB, "needs libstb0"))
    func bc3KeepsAlphaBesideTheColour() throws {
        let expected = Self.blockPixels(Self.picture)
        let blocks = try DXTEncoder(format: .bc3).encode(Self.picture)
        let alpha = Self.error(expected, channel: 3) { ReferenceBlockDecoding.bc4(blocks, at: $0 * 16) }
        let green = Self.error(expected, channel: 1) { ReferenceBlockDecoding.bc1(blocks, at: $0 * 16 + 8).map { $0[1] } }
        #expect(alpha < 4 && green < 13, "alpha RMS \(alpha), green RMS \(green)")
    }

    @Test(.enabled(if: GPUFixtures.hasSTB, "needs libstb0"))
    func bc4AndBC5EncodeRedAndGreen() throws {
        let expected = Self.blockPixels(Self.picture)
        let bc4 = try DXTEncoder(format: .bc4).encode(Self.picture)
        let bc5 = try DXTEncoder(format: .bc5).encode(Self.picture)
        let red = Self.error(expected, channel: 0) { ReferenceBlockDecoding.bc4(bc4, at: $0 * 8) }
        let bc5Red = Self.error(expected, channel: 0) { ReferenceBlockDecoding.bc4(bc5, at: $0 * 16) }
        let bc5Green = Self.error(expected, channel: 1) { ReferenceBlockDecoding.bc4(bc5, at: $0 * 16 + 8) }
        #expect(red < 3 && bc5Red < 3 && bc5Green < 3, "BC4 red RMS \(red), BC5 red \(bc5Red), green \(bc5Green)")
        #expect(Array(bc5[0..<8]) == Array(bc4[0..<8]))
    }

    @Test(.enabled(if: !GPUFixtures.hasSTB, "a machine without libstb0 (a fresh one)"))
    func withoutTheLibraryTheEncoderSaysWhatToInstall() {
        #expect(throws: MissingSystemLibrary.self) { try DXTEncoder(format: .bc1) }
    }

    @Test func aMissingLibraryNamesItsPackage() {
        #expect {
            try STBDXTLibrary.opened(fileNames: ["libstb-absent.so.0"]).get()
        } throws: { error in
            (error as? MissingSystemLibrary).map { $0.package == "libstb0" && $0.library == "libstb" } ?? false
        }
    }
}
