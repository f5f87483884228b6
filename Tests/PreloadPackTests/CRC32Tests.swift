import CPreloadZlib
import PreloadPack
import Testing

/// `CRC32.checksum` (carry-less multiplication for long runs where the CPU has it) against zlib's
/// own `crc32` byte for byte: every length around the fast path's block sizes, every alignment,
/// continued checksums, and known values.
@Suite struct CRC32Tests {
    /// Deterministic bytes that are not a simple pattern.
    static let data: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<(1 << 20) + 77).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }()

    static func zlibCRC(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        UInt32(CPreloadZlib.crc32(uLong(seed), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    @Test func knownValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8](repeating: 0, count: 4096)) == 0xC71C_0011)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test func everyLengthAndAlignmentMatchesZlib() {
        Self.data.withUnsafeBytes { all in
            var mismatches: [String] = []
            for offset in 0..<17 {
                for length in 0...600 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<offset + length])
                    if CRC32.checksum(slice) != Self.zlibCRC(slice) { mismatches.append("offset \(offset) length \(length)") }
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        }
    }

    @Test func longRunsAndContinuedChecksumsMatchZlib() {
        Self.data.withUnsafeBytes { all in
            for length in [4095, 65_536, 65_537, 1 << 20, all.count - 3] {
                let slice = UnsafeRawBufferPointer(rebasing: all[3..<3 + length])
                #expect(CRC32.checksum(slice) == Self.zlibCRC(slice), "length \(length)")
            }
            // Continued in uneven pieces, as an entry is checked slice by slice.
            var crc: UInt32 = 0
            var start = 0
            for piece in [1, 63, 64, 65, 1000, 4096, 100_003] {
                crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: all[start..<start + piece]), seed: crc)
                start += piece
            }
            #expect(crc == Self.zlibCRC(UnsafeRawBufferPointer(rebasing: all[0..<start])))
            #expect(
                CRC32.checksum(UnsafeRawBufferPointer(rebasing: all[0..<500]), seed: 0xDEAD_BEEF)
                    == Self.zlibCRC(UnsafeRawBufferPointer(rebasing: all[0..<500]), seed: 0xDEAD_BEEF))
        }
    }

    @Test func theFastPathRunsOnThisMachine() {
        // Every x86-64 CPU since 2010 has PCLMULQDQ; elsewhere zlib does all the work.
        #if arch(x86_64)
            #expect(CRC32.isAccelerated)
        #else
            #expect(!CRC32.isAccelerated)
        #endif
    }
}
