/// Bytes being written in KTX2's byte order (little-endian), whatever the host's.
struct LittleEndianBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ more: [UInt8]) { bytes += more }

    /// `value` as a `UInt32` (the writer's values fit: sizes of a texture whose sides are `Int32`).
    mutating func append32(_ value: some BinaryInteger) {
        let word = UInt32(value)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
    }

    mutating func append64(_ value: some BinaryInteger) {
        let word = UInt64(value)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
    }

    /// Zero bytes up to `count` bytes in all.
    mutating func pad(to count: Int) {
        if count > bytes.count { bytes += repeatElement(0, count: count - bytes.count) }
    }

    /// 16-bit samples turned between the host's byte order and little-endian: nothing to do on a
    /// little-endian host (every machine Preload runs on today).
    static func swapSamples16(_ bytes: inout [UInt8]) {
        #if _endian(big)
            for index in stride(from: 0, to: bytes.count - 1, by: 2) { bytes.swapAt(index, index + 1) }
        #endif
    }
}
