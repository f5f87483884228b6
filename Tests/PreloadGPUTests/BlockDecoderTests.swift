import Foundation
import Preload
import PreloadGPU
import Testing

/// The block decoder against Pillow's DDS decoder, through the fixtures
/// `Fixtures/make_block_fixtures.py` made (every BC7 mode and partition; both BC1 colour modes;
/// both ramps of BC3, BC4 and BC5).
@Suite struct BlockDecoderTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func fixture(_ name: String) throws -> (blocks: [UInt8], pixels: [UInt8]) {
        let blocks = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("\(name).blocks")))
        let pixels = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("\(name).rgba")))
        return (blocks, pixels)
    }

    @Test(arguments: [PixelFormat.bc1, .bc3, .bc4, .bc5, .bc7])
    func decodesAsPillowDoes(format: PixelFormat) throws {
        let (blocks, reference) = try Self.fixture(format.rawValue)
        var pixels = reference
        let width = blocks.count / format.bytesPerBlock * 4
        if format == .bc7 {
            // The last block is reserved (first byte 0): transparent black, as Direct3D specifies;
            // Pillow gives opaque black.
            for y in 0..<4 {
                for x in width - 4..<width { pixels[(y * width + x) * 4 + 3] = 0 }
            }
        }
        let image = try BlockDecoder.decode(blocks, format: format, width: width, height: 4)
        #expect(image.width == width && image.height == 4)
        let mismatched = (0..<width * 4).filter { image.pixels[$0 * 4..<$0 * 4 + 4] != pixels[$0 * 4..<$0 * 4 + 4] }
        let blocksWrong = Set(mismatched.map { $0 % width / 4 }).sorted()
        #expect(mismatched.isEmpty, "\(format): \(mismatched.count) pixels differ, in blocks \(blocksWrong.prefix(8))")
    }

    @Test func cropsPartialBlocksAtTheEdges() throws {
        let (blocks, pixels) = try Self.fixture("bc7")
        // The first two blocks as a 6x3 image: all of the first block's pixels in 3 rows, 2 columns of the second.
        let image = try BlockDecoder.decode(Array(blocks[0..<32]), format: .bc7, width: 6, height: 3)
        let fullWidth = blocks.count / 16 * 4
        for y in 0..<3 {
            #expect(image.pixels[y * 24..<y * 24 + 24] == pixels[y * fullWidth * 4..<y * fullWidth * 4 + 24])
        }
    }

    @Test func wrongSizesAndFormatsAreTypedErrors() {
        #expect(throws: BlockDecodingError.byteCountMismatch(expected: 32, actual: 16)) {
            try BlockDecoder.decode([UInt8](repeating: 0, count: 16), format: .bc7, width: 5, height: 4)
        }
        #expect(throws: BlockDecodingError.byteCountMismatch(expected: 8, actual: 0)) {
            try BlockDecoder.decode([], format: .bc1, width: 1, height: 1)
        }
        #expect(throws: BlockDecodingError.invalidSize(width: -4, height: 4)) {
            try BlockDecoder.decode([], format: .bc4, width: -4, height: 4)
        }
        #expect(throws: BlockDecodingError.notBCFormat(.astc4x4)) {
            try BlockDecoder.decode([UInt8](repeating: 0, count: 16), format: .astc4x4, width: 4, height: 4)
        }
        #expect(throws: BlockDecodingError.notBCFormat(.rgba8)) {
            try BlockDecoder.decode([UInt8](repeating: 0, count: 4), format: .rgba8, width: 1, height: 1)
        }
        #expect((try? BlockDecoder.decode([], format: .bc7, width: 0, height: 0))?.pixels == [])
    }
}
