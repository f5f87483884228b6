import CPreloadZlib
import Foundation
@testable import PreloadZlib  // ZlibDecompressor: zlib's path too, where this machine has libdeflate
import Testing

/// `Zlib.decompress(_:into:)`: one zlib stream into a buffer of its known size, through libdeflate
/// and through zlib alike; a stream that ends short is told, one that goes on past the buffer (a
/// zlib bomb, a lying size) fails by name and writes nothing past it.
@Suite struct ZlibDecompressTests {
    private let text = Array(String(repeating: "one call into a buffer of the known size, ", count: 50).utf8)

    /// The two decompressors: libdeflate's (this project's machines have it) and zlib's.
    private func decompressors() throws -> [ZlibDecompressor] {
        [try ZlibDecompressor(libdeflate: try LibDeflate.get()), try ZlibDecompressor(libdeflate: nil)]
    }

    /// `input` decompressed by `decompressor` into `room` bytes followed by 16 guard bytes, which
    /// must stay untouched: the bytes produced, or the error.
    private func decompress(_ input: [UInt8], room: Int, with decompressor: ZlibDecompressor) -> Result<[UInt8], ZlibError> {
        var buffer = [UInt8](repeating: 0xA5, count: room + 16)
        var failure: ZlibError?
        let produced = input.withUnsafeBytes { input in
            buffer.withUnsafeMutableBytes { buffer in
                do throws(ZlibError) {
                    return try decompressor.decompress(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]))
                } catch {
                    failure = error
                    return 0
                }
            }
        }
        #expect(buffer[room...].allSatisfy { $0 == 0xA5 }, "nothing written past the room given")
        return failure.map { .failure($0) } ?? .success(Array(buffer[..<produced]))
    }

    @Test func aStreamInflatesWholeIntoItsKnownSizeWithTrailingBytesLeftAlone() throws {
        let packed = try Zlib.compress(text, level: 9)
        for decompressor in try decompressors() {
            #expect(try decompress(packed, room: text.count, with: decompressor).get() == text)
            #expect(try decompress(packed + [1, 2, 3, 4], room: text.count, with: decompressor).get() == text)
            // A stream that ends before the room is full says how much it made.
            #expect(try decompress(packed, room: text.count + 10, with: decompressor).get() == text)
        }
        var output = [UInt8](repeating: 0, count: text.count)
        let produced = try packed.withUnsafeBytes { input in try output.withUnsafeMutableBytes { try Zlib.decompress(input, into: $0) } }
        #expect(produced == text.count && output == text)
    }

    @Test func aBombOrALyingSizeFailsByNameWithoutWritingPastTheRoom() throws {
        let bomb = try Zlib.compress([UInt8](repeating: 0, count: 1 << 20), level: 9)
        let packed = try Zlib.compress(text, level: 9)
        for decompressor in try decompressors() {
            for (input, room) in [(bomb, 64), (packed, text.count - 1), (packed, 0)] {
                guard case .failure(let error) = decompress(input, room: room, with: decompressor) else {
                    Issue.record("a \(room)-byte room took a stream that inflates past it")
                    continue
                }
                #expect(error.code == ZlibError.outputFull)
                #expect(error.description == "inflate: the data inflates past the room given")
            }
        }
    }

    @Test func damagedOrCutShortDataFails() throws {
        let packed = try Zlib.compress(text, level: 9)
        var wrongSum = packed
        wrongSum[wrongSum.count - 1] ^= 0xFF
        for decompressor in try decompressors() {
            for input in [[1, 2, 3, 4], [], Array(packed.dropLast(6)), wrongSum] as [[UInt8]] {
                guard case .failure(let error) = decompress(input, room: text.count, with: decompressor) else {
                    Issue.record("\(input.count) damaged bytes inflated")
                    continue
                }
                #expect([Z_DATA_ERROR, Z_BUF_ERROR].contains(error.code), "\(error)")
            }
        }
    }
}
