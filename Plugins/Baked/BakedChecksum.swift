import PreloadPack

/// The checksum a baked pack uses for its header, index and every entry: CRC-32 (zlib's
/// polynomial), by carry-less multiplication where the CPU has it (several GB/s), as packs do
/// (`CRC32` of `PreloadPack`).
public enum BakedChecksum {
    /// CRC-32 of `bytes`.
    public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 { CRC32.checksum(bytes) }

    /// CRC-32 of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 { CRC32.checksum(bytes) }
}
