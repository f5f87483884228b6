import PreloadPack

/// Gives a `.pak` input correct index and header checksums, so mutations reach the index
/// parser instead of stopping at the checksum (a hostile pack has correct checksums too).
public func sealPak(_ bytes: inout [UInt8]) {
    let magic: [UInt8] = [0x50, 0x52, 0x4C, 0x50, 0x41, 0x4B, 0x0D, 0x0A]
    guard bytes.count >= 40, Array(bytes[0..<8]) == magic else { return }
    func field(_ at: Int, _ size: Int) -> UInt64 {
        (0..<size).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
    func store(_ value: UInt32, at: Int) {
        for byte in 0..<4 { bytes[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))) }
    }
    let offset = field(16, 8), size = field(24, 8)
    if offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset {
        store(CRC32.checksum(Array(bytes[Int(offset)..<Int(offset + size)])), at: 32)
    }
    store(CRC32.checksum(Array(bytes[0..<36])), at: 36)
}

extension FuzzInput {
    /// Writes the input as this process's pack file, sealed first when it is a `.pak`.
    public static func writePack(_ data: UnsafePointer<UInt8>?, _ count: Int) -> String {
        var bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        sealPak(&bytes)
        return bytes.withUnsafeBufferPointer { write($0.baseAddress, $0.count, name: "input.pack") }
    }
}
