import Foundation
import PreloadZlib  // public API only: the one inflate a third-party plugin reads compressed data with
import Testing

/// `Inflater`: zlib, raw deflate and gzip streams inflated in pieces; damage and early ends told apart.
@Suite struct InflaterTests {
    private let text = Array(String(repeating: "one inflate for every plugin, ", count: 40).utf8)

    /// Inflates all of `input` into a buffer of `room` bytes.
    private func inflate(_ input: [UInt8], format: Inflater.Format, room: Int) throws -> (bytes: [UInt8], finished: Bool) {
        let inflater = try Inflater(format: format)
        var output = [UInt8](repeating: 0, count: room)
        let produced = try input.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { output in try inflater.inflate(input, into: output).produced }
        }
        return (Array(output[..<produced]), inflater.isFinished)
    }

    @Test func aZlibStreamInflatesWhole() throws {
        let packed = try Zlib.compress(text, level: 9)
        let result = try inflate(packed, format: .zlib, room: text.count + 1)
        #expect(result.bytes == text && result.finished)
        let either = try inflate(packed, format: .zlibOrGzip, room: text.count + 1)
        #expect(either.bytes == text && either.finished)
    }

    /// A gzip file (as `gzip` writes them: Foundation has no writer, so the header is built here).
    @Test func aGzipStreamInflatesAsGzipOrEither() throws {
        let zlib = try Zlib.compress(text, level: 6)
        let deflate = Array(zlib[2..<(zlib.count - 4)])
        var crc = zlibCRC(text)
        var gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflate
        for _ in 0..<4 {
            gzip.append(UInt8(truncatingIfNeeded: crc))
            crc >>= 8
        }
        var size = UInt32(text.count)
        for _ in 0..<4 {
            gzip.append(UInt8(truncatingIfNeeded: size))
            size >>= 8
        }
        #expect(try inflate(gzip, format: .gzip, room: text.count + 1).bytes == text)
        #expect(try inflate(gzip, format: .zlibOrGzip, room: text.count + 1).bytes == text)
        #expect(try inflate(deflate, format: .raw, room: text.count + 1).bytes == text)
    }

    /// A stream cut short inflates what it has and is not finished; damage is a `ZlibError` with zlib's words.
    @Test func aCutStreamIsUnfinishedAndDamageIsNamed() throws {
        let packed = try Zlib.compress(text, level: 9)
        let cut = try inflate(Array(packed.prefix(packed.count / 2)), format: .zlib, room: text.count + 1)
        #expect(!cut.finished && cut.bytes.count < text.count)
        var damaged = packed
        damaged[0] ^= 0xFF
        #expect {
            try inflate(damaged, format: .zlib, room: text.count)
        } throws: { error in
            (error as? ZlibError)?.description == "inflate: invalid compressed data (incorrect header check)"
        }
    }

    /// The CRC-32 a gzip trailer holds (zlib's polynomial), computed bit by bit.
    private func zlibCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
