import Preload

/// Why a KTX2 file cannot be read or a texture cannot be written as one: each case names the part
/// of the file at fault and the values found. A damaged file never traps: every offset, length
/// and count is checked against the file and the format before it is used.
public enum KTX2Error: AssetFailure, Equatable {
    /// The file does not start with KTX2's 12-byte identifier (`«KTX 20»\r\n\x1A\n`).
    case badIdentifier
    /// The file ends inside `part` (the header, the level index...): `needed` bytes, `available` there.
    case truncated(part: String, needed: Int, available: Int)
    /// `vkFormat` is not one of `PixelFormat`'s formats (or is a variant of one that
    /// decodes differently, such as BC1 without alpha).
    case unknownFormat(vkFormat: UInt32)
    /// A header field holds a value the specification or this texture forbids.
    case invalidHeader(field: String, value: UInt64, expected: String)
    /// A valid KTX2 texture of a kind a `Texture` cannot hold (1D, 3D, an array, a cube map).
    case unsupportedTextureType(String)
    /// `supercompressionScheme` is not 0 (none) or 2 (Zstandard): BasisLZ (1), zlib (3) or unknown.
    case unsupportedSupercompression(scheme: UInt32)
    /// The index points `part` (the DFD, the key/value data, the supercompression global data)
    /// at bytes outside the file or in the wrong place.
    case sectionOutsideFile(part: String, offset: UInt64, length: UInt64, fileSize: Int)
    /// Level `level`'s bytes lie outside the file (or over its header and index).
    case levelOutsideFile(level: Int, offset: UInt64, length: UInt64, fileSize: Int)
    /// Level `level` is `length` bytes where its size and format need `expected`.
    case levelLengthMismatch(level: Int, length: UInt64, expected: Int)
    /// Level `level` starts at `offset`, not on the `alignment` the specification requires.
    case levelMisaligned(level: Int, offset: UInt64, alignment: Int)
    /// The file has no Data Format Descriptor, or none of Khronos' basic kind.
    case missingDataFormatDescriptor
    /// The Data Format Descriptor is malformed: `detail` says how.
    case invalidDataFormatDescriptor(String)
    /// The Data Format Descriptor's `field` holds `found` where `vkFormat` needs `expected`.
    case dataFormatDescriptorMismatch(field: String, found: UInt32, expected: UInt32)
    /// The DFD's transfer function is neither sRGB (2) nor linear (1).
    case unsupportedTransferFunction(UInt32)
    /// The key/value data is malformed: `detail` says how.
    case invalidKeyValueData(String)
    /// `KTXorientation` says the rows or columns run another way than right and down.
    case unsupportedOrientation(String)
    /// Level `level`'s Zstandard data does not inflate to the level's bytes: `detail` says how.
    case damagedLevel(level: Int, detail: String)
    /// The texture is larger than the limits the read allows: `byteCount` bytes (every level).
    case tooLarge(width: Int, height: Int, byteCount: Int, limits: ImageLimits)
    /// A texture of no pixels (width or height 0): KTX2 has no 2D texture of that size.
    case emptyTexture(width: Int, height: Int)
    /// A key the writer cannot store: empty, with a NUL byte, or a key reserved for KTX's own
    /// use that it does not write.
    case invalidKey(String)
    /// Zstandard levels need libzstd, which this machine lacks.
    case libraryMissing(MissingSystemLibrary)
    /// libzstd refused to compress level `level`.
    case compressionFailed(level: Int, detail: String)

    public var category: AssetError.Category {
        switch self {
        case .truncated: .truncated
        case .unsupportedTextureType, .unsupportedSupercompression, .unsupportedTransferFunction, .unsupportedOrientation, .unknownFormat:
            .unsupported
        case .tooLarge: .limitExceeded
        case .libraryMissing: .libraryMissing
        case .emptyTexture, .invalidKey, .compressionFailed: .other
        case .badIdentifier, .invalidHeader, .sectionOutsideFile, .levelOutsideFile, .levelLengthMismatch, .levelMisaligned,
            .missingDataFormatDescriptor, .invalidDataFormatDescriptor, .dataFormatDescriptorMismatch, .invalidKeyValueData, .damagedLevel:
            .corrupt
        }
    }

    public var description: String {
        switch self {
        case .badIdentifier: "not a KTX2 file: the 12-byte identifier is missing"
        case .truncated(let part, let needed, let available):
            "KTX2 file ends inside the \(part): it needs \(needed) bytes, \(available) are there"
        case .unknownFormat(let vkFormat): "KTX2 vkFormat \(vkFormat) is not a format Preload holds"
        case .invalidHeader(let field, let value, let expected): "KTX2 header: \(field) is \(value), expected \(expected)"
        case .unsupportedTextureType(let kind): "KTX2 \(kind) textures are not supported: only a 2D texture is"
        case .unsupportedSupercompression(let scheme): "KTX2 supercompression scheme \(scheme) is not supported (only none and Zstandard)"
        case .sectionOutsideFile(let part, let offset, let length, let fileSize):
            "KTX2 \(part) at \(offset), \(length) bytes, is not where it may be in a \(fileSize)-byte file"
        case .levelOutsideFile(let level, let offset, let length, let fileSize):
            "KTX2 level \(level) at \(offset), \(length) bytes, lies outside the \(fileSize)-byte file's data"
        case .levelLengthMismatch(let level, let length, let expected):
            "KTX2 level \(level) is \(length) bytes; its size and format need \(expected)"
        case .levelMisaligned(let level, let offset, let alignment):
            "KTX2 level \(level) starts at \(offset), not on a multiple of \(alignment)"
        case .missingDataFormatDescriptor: "KTX2 file has no basic Data Format Descriptor"
        case .invalidDataFormatDescriptor(let detail): "KTX2 Data Format Descriptor: \(detail)"
        case .dataFormatDescriptorMismatch(let field, let found, let expected):
            "KTX2 Data Format Descriptor: \(field) is \(found), the file's vkFormat needs \(expected)"
        case .unsupportedTransferFunction(let transfer): "KTX2 transfer function \(transfer) is not supported (only sRGB and linear)"
        case .invalidKeyValueData(let detail): "KTX2 key/value data: \(detail)"
        case .unsupportedOrientation(let orientation): "KTX2 orientation \"\(orientation)\" is not supported (only \"rd\")"
        case .damagedLevel(let level, let detail): "KTX2 level \(level): \(detail)"
        case .tooLarge(let width, let height, let byteCount, let limits):
            "KTX2 texture too large: \(width)x\(height) needs \(byteCount) bytes; the limits are \(limits)"
        case .emptyTexture(let width, let height): "a \(width)x\(height) texture has no pixels: KTX2 cannot hold it"
        case .invalidKey(let key): "KTX2 key \"\(key)\" cannot be written (empty, with a NUL, or reserved by KTX)"
        case .libraryMissing(let missing): "Zstandard KTX2 levels: \(missing)"
        case .compressionFailed(let level, let detail): "KTX2 level \(level) did not compress: \(detail)"
        }
    }
}
