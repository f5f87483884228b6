/// Little-endian integers in the bytes of a baked entry (and of any format a plugin writes):
/// appended to an array as it is built, read back from bytes already checked to be long enough.
/// Inlinable: a caller in another module gets them specialized for its integer types (a generic
/// call per field cost a metadata lookup each when a 20,000-entry index was read).
extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first.
    @inlinable
    public mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset` (which the caller checked lies inside the bytes).
    @inlinable
    public func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
