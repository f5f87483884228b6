#if canImport(Glibc)
    import Glibc
#endif

/// The bytes a loaded asset holds: a texture's pixels, a data entry's contents.
///
/// An immutable collection of `UInt8` that copies share. Large ones live in an
/// ``AssetMemory`` region that goes back to the pool when the last copy goes, so the next load
/// reuses memory that is already faulted in; small ones are plain arrays. Read them as a
/// collection, through ``withUnsafeBytes(_:)`` (what an upload to the GPU wants), or copy them
/// out with ``array``. They compare equal to a `[UInt8]` with the same bytes.
///
/// A plugin makes them from an array it already has (``init(_:)``), or has the decoder write
/// straight into pooled memory with ``init(unsafeUninitializedCapacity:memory:initializingWith:)``.
public struct AssetBytes: Sendable {
    // One reference either way, so a `Texture` still fits an existential's inline buffer.
    private enum Storage: Sendable {
        case array([UInt8])
        case pooled(PooledBlock)
        /// Small bytes written in place: one allocation, no array metadata to look up.
        case block(ByteBlock)
        /// A range of a mapped file (a baked pack's texture): no copy.
        case mapped(MappedViewBox)
    }

    private let storage: Storage

    /// Wraps an array without copying it.
    public init(_ array: [UInt8]) {
        storage = .array(array)
    }

    /// A view of `count` bytes at `offset` of `mapping`, without copying them: the bytes stay in
    /// the file's pages and keep the mapping alive as long as any copy of them is held. The
    /// range must lie inside the file.
    public init(viewing mapping: FileMapping, offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset <= mapping.count - count, "view outside the mapped file")
        storage = .mapped(MappedViewBox(MappedView(mapping: mapping, offset: offset, count: count)))
    }

    /// Room for `capacity` bytes, written by `initializer`, which sets `initializedCount` to
    /// how many it wrote (from the start); only those become the bytes. From `memory`'s pool
    /// when `capacity` is large enough to be pooled, otherwise an array. If `initializer`
    /// throws, the memory goes back and the error propagates.
    public init(
        unsafeUninitializedCapacity capacity: Int, memory: AssetMemory = .shared,
        initializingWith initializer: (_ buffer: UnsafeMutableRawBufferPointer, _ initializedCount: inout Int) throws -> Void
    ) rethrows {
        precondition(capacity >= 0, "negative capacity")
        if memory.pools(capacity), let region = memory.take(count: capacity) {
            var count = 0
            do {
                try initializer(UnsafeMutableRawBufferPointer(start: region.base, count: capacity), &count)
            } catch {
                memory.recycle(region)
                throw error
            }
            precondition(count >= 0 && count <= capacity, "initialized count out of range")
            storage = .pooled(PooledBlock(region: region, count: count, pool: memory))
        } else {
            storage = .block(try ByteBlock.make(capacity: capacity, initializingWith: initializer))
        }
    }

    /// Calls `body` with the bytes in place, valid only during the call.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .array(let array): return try array.withUnsafeBytes(body)
        case .pooled(let block):
            return try withExtendedLifetime(block) { try body(UnsafeRawBufferPointer(start: block.region.base, count: block.count)) }
        case .block(let block): return try block.withUnsafeBytes(body)
        case .mapped(let box): return try box.view.withUnsafeBytes(body)
        }
    }

    /// The first `count` bytes (all of them when there are fewer), copied at once: `Array` of a
    /// prefix of the collection copies byte by byte (~1,100 instructions for a PNG's signature
    /// and header; callgrind, issue 50).
    package func leadingBytes(_ count: Int) -> [UInt8] {
        withUnsafeBufferPointer { Array($0.prefix(count)) }
    }

    /// Calls `body` with the bytes in place as `UInt8`s, valid only during the call.
    public func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeBytes { try body($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// A copy as an array (no copy when the bytes already are one).
    public var array: [UInt8] {
        switch storage {
        case .array(let array): return array
        case .pooled, .block, .mapped: return withUnsafeBytes { [UInt8]($0) }
        }
    }

    /// Whether the bytes live in a pooled region (rather than an array).
    package var isPooled: Bool {
        if case .pooled = storage { return true }
        return false
    }

    /// The mapped file the bytes are a view into, if they are one.
    package var mapping: FileMapping? {
        if case .mapped(let box) = storage { return box.view.mapping }
        return nil
    }

    /// Whether the bytes are a view into a mapped file (``init(viewing:offset:count:)``).
    public var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }

    /// The bytes in `range`: a view of the same mapped file when these are one (no copy: a
    /// baked entry's payload after its header), else a copy.
    public func extracting(_ range: Range<Int>) -> AssetBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
        if case .mapped(let box) = storage {
            return AssetBytes(viewing: box.view.mapping, offset: box.view.offset + range.lowerBound, count: range.count)
        }
        return withUnsafeBytes { AssetBytes(Array($0[range])) }
    }
}

extension AssetBytes: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of bytes.
    public var count: Int {
        switch storage {
        case .array(let array): return array.count
        case .pooled(let block): return block.count
        case .block(let block): return block.count
        case .mapped(let box): return box.view.count
        }
    }

    public subscript(position: Int) -> UInt8 {
        switch storage {
        case .array(let array): return array[position]
        case .pooled(let block):
            precondition(position >= 0 && position < block.count, "AssetBytes index out of range")
            return withExtendedLifetime(block) { block.region.base.load(fromByteOffset: position, as: UInt8.self) }
        case .block(let block):
            precondition(position >= 0 && position < block.count, "AssetBytes index out of range")
            return block.withUnsafeBytes { $0[position] }
        case .mapped(let box):
            precondition(position >= 0 && position < box.view.count, "AssetBytes index out of range")
            return box.view.withUnsafeBytes { $0[position] }
        }
    }

    public func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try withUnsafeBufferPointer(body)
    }
}

extension AssetBytes: Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }

    public static func == (lhs: AssetBytes, rhs: AssetBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in sameBytes(left, right) } }
    }

    static func sameBytes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress, a != b else { return true }
        return memcmp(a, b, left.count) == 0
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The byte count, not the bytes (a texture has millions).
    public var description: String { "\(count) bytes" }
}

/// Bytes against an array with the same bytes.
package func == (lhs: AssetBytes, rhs: [UInt8]) -> Bool {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in AssetBytes.sameBytes(left, right) } }
}

/// Bytes against an array with the same bytes.
package func == (lhs: [UInt8], rhs: AssetBytes) -> Bool { rhs == lhs }

/// Bytes against an array with other bytes.
package func != (lhs: AssetBytes, rhs: [UInt8]) -> Bool { !(lhs == rhs) }

/// Bytes against an array with other bytes.
package func != (lhs: [UInt8], rhs: AssetBytes) -> Bool { !(rhs == lhs) }

/// Small bytes in one allocation: the count, then the bytes. Written once, by the initializer
/// that makes it, and never changed after it is published in an ``AssetBytes`` (hence sendable).
struct ByteBlock: @unchecked Sendable {
    /// The allocation: a non-generic class, so making one looks up no generic metadata.
    final class Buffer: ManagedBuffer<Int, UInt8> {}

    private let buffer: Buffer

    /// A block of at most `capacity` bytes, written by `initializer` (see
    /// ``AssetBytes/init(unsafeUninitializedCapacity:memory:initializingWith:)``).
    static func make(
        capacity: Int, initializingWith initializer: (_ buffer: UnsafeMutableRawBufferPointer, _ initializedCount: inout Int) throws -> Void
    ) rethrows -> ByteBlock {
        let buffer = unsafeDowncast(Buffer.create(minimumCapacity: capacity) { _ in 0 }, to: Buffer.self)
        try buffer.withUnsafeMutablePointers { count, bytes in
            var written = 0
            try initializer(UnsafeMutableRawBufferPointer(start: bytes, count: capacity), &written)
            precondition(written >= 0 && written <= capacity, "initialized count out of range")
            count.pointee = written
        }
        return ByteBlock(buffer: buffer)
    }

    /// How many bytes it holds.
    var count: Int { buffer.header }

    /// Calls `body` with the bytes in place, valid only during the call.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { count, bytes in try body(UnsafeRawBufferPointer(start: bytes, count: count.pointee)) }
    }
}

/// A ``MappedView`` behind one reference, so that ``AssetBytes`` stays one word of payload.
final class MappedViewBox: Sendable {
    let view: MappedView
    init(_ view: MappedView) { self.view = view }
}
