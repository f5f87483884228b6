/// Integers and runs of bytes read from a file's bytes, little-endian or big-endian whatever the
/// host's order, every read checked against the end: the one byte reader every plugin uses for
/// binary headers, chunk tables and records (RIFF, zip, PNG, QOI, BMFont, Exif ...).
///
/// A read past the end throws ``TruncatedBytes`` naming what was cut (the words a plugin gives
/// with the read: "the fmt chunk's sample rate"), where it starts and where the bytes end; it
/// never traps. Reads at the cursor advance it; reads `at:` an offset leave it where it is.
///
/// ```swift
/// import Preload
///
/// let header: [UInt8] = [0x52, 0x49, 0x46, 0x46, 0x24, 0x08, 0x00, 0x00]
/// var reader = ByteReader(header)
/// let magic = try reader.bytes(4, "the RIFF magic")
/// let size = try reader.littleEndian(UInt32.self, "the RIFF size")
/// print(String(decoding: magic, as: UTF8.self), size)  // RIFF 2084
/// ```
public struct ByteReader<Bytes: RandomAccessCollection<UInt8>> where Bytes.Index == Int {
    /// The bytes read.
    public let bytes: Bytes
    /// Where the next read at the cursor starts, counted from the first of ``bytes`` (0 for an
    /// array slice's first byte too).
    public var offset: Int

    /// A reader of `bytes` whose cursor starts at `offset`.
    @inlinable public init(_ bytes: Bytes, at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// How many bytes there are.
    @inlinable public var count: Int { bytes.count }

    /// How many bytes are left after the cursor.
    @inlinable public var remaining: Int { Swift.max(0, bytes.count - offset) }

    /// Throws unless `count` bytes from `offset` lie within the bytes.
    /// - Throws: ``TruncatedBytes`` naming `what`.
    @inlinable public func require(_ count: Int, at offset: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) {
        guard offset >= 0, count >= 0, count <= bytes.count, offset <= bytes.count - count else {
            throw TruncatedBytes(what: what(), offset: offset, needed: count, end: bytes.count)
        }
    }

    /// The `T` stored little-endian at `offset`.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end.
    @inlinable public func littleEndian<T: FixedWidthInteger>(
        at offset: Int, as type: T.Type = T.self, _ what: @autoclosure () -> String
    ) throws(TruncatedBytes) -> T {
        try number(at: offset, byteCount: MemoryLayout<T>.size, bigEndian: false, what())
    }

    /// The `T` stored big-endian at `offset`.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end.
    @inlinable public func bigEndian<T: FixedWidthInteger>(
        at offset: Int, as type: T.Type = T.self, _ what: @autoclosure () -> String
    ) throws(TruncatedBytes) -> T {
        try number(at: offset, byteCount: MemoryLayout<T>.size, bigEndian: true, what())
    }

    /// The unsigned number of `byteCount` bytes (1 to 7: a 24-bit field) stored little-endian at `offset`.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end.
    @inlinable public func littleEndian(at offset: Int, byteCount: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) -> Int {
        precondition((1...7).contains(byteCount), "ByteReader reads 1 to 7 bytes as an Int")
        return try number(at: offset, byteCount: byteCount, bigEndian: false, what())
    }

    /// The unsigned number of `byteCount` bytes (1 to 7) stored big-endian at `offset`.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end.
    @inlinable public func bigEndian(at offset: Int, byteCount: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) -> Int {
        precondition((1...7).contains(byteCount), "ByteReader reads 1 to 7 bytes as an Int")
        return try number(at: offset, byteCount: byteCount, bigEndian: true, what())
    }

    /// The `byteCount` bytes at `offset` as a `T`, most significant first when `bigEndian`.
    @inlinable func number<T: FixedWidthInteger>(
        at offset: Int, byteCount: Int, bigEndian: Bool, _ what: @autoclosure () -> String
    ) throws(TruncatedBytes) -> T {
        try require(byteCount, at: offset, what())
        let start = bytes.startIndex + offset
        var value: T = 0
        for index in 0..<byteCount {
            value = value << 8 | T(truncatingIfNeeded: bytes[start + (bigEndian ? index : byteCount - 1 - index)])
        }
        return value
    }

    /// The `count` bytes at `offset`.
    /// - Throws: ``TruncatedBytes`` naming `what` when they run past the end.
    @inlinable public func bytes(at offset: Int, count: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) -> Bytes.SubSequence {
        try require(count, at: offset, what())
        return bytes[bytes.startIndex + offset..<bytes.startIndex + offset + count]
    }

    /// The `T` stored little-endian at the cursor, which moves past it.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end (the cursor stays).
    @inlinable public mutating func littleEndian<T: FixedWidthInteger>(
        _ type: T.Type = T.self, _ what: @autoclosure () -> String
    )
        throws(TruncatedBytes) -> T
    {
        let value = try littleEndian(at: offset, as: T.self, what())
        offset += MemoryLayout<T>.size
        return value
    }

    /// The `T` stored big-endian at the cursor, which moves past it.
    /// - Throws: ``TruncatedBytes`` naming `what` when it runs past the end (the cursor stays).
    @inlinable public mutating func bigEndian<T: FixedWidthInteger>(
        _ type: T.Type = T.self, _ what: @autoclosure () -> String
    )
        throws(TruncatedBytes) -> T
    {
        let value = try bigEndian(at: offset, as: T.self, what())
        offset += MemoryLayout<T>.size
        return value
    }

    /// The `count` bytes at the cursor, which moves past them.
    /// - Throws: ``TruncatedBytes`` naming `what` when they run past the end (the cursor stays).
    @inlinable public mutating func bytes(_ count: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) -> Bytes.SubSequence {
        let run = try bytes(at: offset, count: count, what())
        offset += count
        return run
    }

    /// Moves the cursor `count` bytes on.
    /// - Throws: ``TruncatedBytes`` naming `what` when that passes the end (the cursor stays).
    @inlinable public mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws(TruncatedBytes) {
        try require(count, at: offset, what())
        offset += count
    }
}

/// Bytes end before a read a plugin needed: what was cut, where it starts and where the bytes end.
/// An asset that fails with it fails with category ``AssetError/Category/truncated``.
public struct TruncatedBytes: AssetFailure, Equatable {
    /// What the read was for, in the plugin's words ("the fmt chunk's sample rate").
    public let what: String
    /// Where the read starts, counted from the first of the reader's bytes.
    public let offset: Int
    /// How many bytes it needed.
    public let needed: Int
    /// Where the bytes end (how many there are).
    public let end: Int

    /// A read of `needed` bytes at `offset` for `what`, in bytes that end at `end`.
    public init(what: String, offset: Int, needed: Int, end: Int) {
        self.what = what
        self.offset = offset
        self.needed = needed
        self.end = end
    }

    public var category: AssetError.Category { .truncated }

    public var description: String {
        "\(what) is cut short: \(needed) byte\(needed == 1 ? "" : "s") at byte \(offset), but the data ends at byte \(end)"
    }
}
