/// Reads a 128-bit block's fields from its lowest bit up, as BC formats store them.
struct BlockBitReader {
    private var low: UInt64
    private var high: UInt64

    /// The 16 bytes at `block`, read little-endian.
    @inline(__always)
    init(_ block: UnsafeRawPointer) {
        low = UInt64(littleEndian: block.loadUnaligned(as: UInt64.self))
        high = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// The next `count` bits (0...32) as a number.
    @inline(__always)
    mutating func read(_ count: Int) -> Int32 {
        let value = Int32(truncatingIfNeeded: low & ((1 << UInt64(count)) &- 1))
        low = low >> UInt64(count) | high << UInt64(64 - count)
        high >>= UInt64(count)
        return value
    }
}

/// Writes a 128-bit block's fields from its lowest bit up: the mirror of ``BlockBitReader``.
struct BlockBitWriter {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var position = 0

    /// An empty block.
    init() {}

    /// Appends the low `count` bits (0...32) of `value`.
    @inline(__always)
    mutating func write(_ value: Int32, bits count: Int) {
        let bits = UInt64(truncatingIfNeeded: value) & ((1 << UInt64(count)) &- 1)
        if position < 64 {
            low |= bits << UInt64(position)
            if position + count > 64 { high |= bits >> UInt64(64 - position) }
        } else {
            high |= bits << UInt64(position - 64)
        }
        position += count
    }

    /// Stores the 16 bytes, little-endian, at `block`.
    @inline(__always)
    func store(to block: UnsafeMutableRawPointer) {
        block.storeBytes(of: low.littleEndian, as: UInt64.self)
        block.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
    }
}
