import CPreloadCRC
import PreloadZlib

/// CRC-32 with zlib's polynomial (the checksum of zip, gzip, PNG and Preload's `.pak` and baked
/// packs). Long runs go through carry-less multiplication where the CPU has it (several times
/// zlib's speed: the check was 4% of inflating a pack), the rest through the system zlib.
///
/// A plugin or tool that writes or verifies such a container uses it instead of its own table:
/// `CRC32.checksum(bytes)`, or, for data that comes in pieces, each piece's checksum passed as
/// the next one's `seed`.
public enum CRC32 {
    /// CRC-32 of `bytes`, continuing from `seed`: 0 to start, or the checksum of the bytes
    /// before these.
    public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return seed }
        var offset = 0
        let fast = preload_crc32_prefix(seed, base.assumingMemoryBound(to: UInt8.self), bytes.count, &offset)
        return Zlib.crc32(UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset), seed: fast)
    }

    /// CRC-32 of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Whether ``checksum(_:seed:)`` multiplies carry-less on this machine (for the tests that
    /// check both paths).
    package static var isAccelerated: Bool { preload_crc32_is_accelerated() != 0 }
}
