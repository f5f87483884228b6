import Preload

/// A KTX 2.0 file (Khronos' container for GPU textures, what Vulkan, OpenGL, WebGPU and glTF
/// engines load): one 2D `Texture` in any `PixelFormat`, with its mipmap
/// chain, colour space and alpha mode, and the file's key/value data.
///
/// ```swift
/// import Preload
/// import PreloadGPU
///
/// let texture = Texture(width: 4, height: 4, pixelFormat: .bc7, alphaMode: .straight, colorSpace: .sRGB,
///                       pixels: [UInt8](repeating: 0, count: 16))
/// let bytes = try KTX2File(texture: texture, supercompression: .zstd).encoded()
/// let read = try KTX2File(decoding: bytes)
/// print(read.texture.pixelFormat, read.texture.colorSpace)  // bc7 sRGB
/// ```
///
/// The file is written as the KTX 2.0 specification says: `vkFormat` from
/// `PixelFormat.vulkanFormat(colorSpace:)`, a basic Data Format Descriptor matching it
/// (colour model, sRGB or linear transfer, premultiplied alpha flag, texel block, samples), levels
/// stored smallest first on their required alignment, each compressed on its own with Zstandard
/// when ``supercompression`` says so.
public struct KTX2File: Sendable, Hashable {
    /// The texture: every mipmap level, its format, colour space and alpha mode.
    public var texture: Texture
    /// Whether the levels are stored as they are or each compressed with Zstandard.
    public var supercompression: KTX2Supercompression
    /// The file's key/value data, keys without their NUL, values as stored (a string value keeps
    /// its NUL terminator). Writing adds `KTXorientation` ("rd": rows top to bottom, pixels left
    /// to right) and `KTXwriter` when they are missing.
    public var keyValues: [String: [UInt8]]

    /// A file holding `texture`, its levels stored as `supercompression` says, with `keyValues`
    /// beside the ones the writer adds.
    public init(texture: Texture, supercompression: KTX2Supercompression = .none, keyValues: [String: [UInt8]] = [:]) {
        self.texture = texture
        self.supercompression = supercompression
        self.keyValues = keyValues
    }

    /// The 12 bytes every KTX2 file starts with: `«KTX 20»\r\n\x1A\n`.
    public static let identifier: [UInt8] = [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The `KTXwriter` value written when ``keyValues`` has none.
    public static let defaultWriter = "Preload PreloadGPU"

    /// Bytes before the level index: identifier, header and index.
    static let headerByteCount = 80
    /// Bytes of one level index entry: byte offset, byte length, uncompressed byte length.
    static let levelIndexEntryByteCount = 24

    /// Where level `level`'s bytes must start (a multiple of this): the least common multiple of
    /// the format's block bytes and 4 when the levels are stored as they are, 1 when compressed.
    static func levelAlignment(of format: PixelFormat, supercompression: KTX2Supercompression) -> Int {
        guard supercompression == .none else { return 1 }
        var (a, b) = (format.bytesPerBlock, 4)
        while b != 0 { (a, b) = (b, a % b) }
        return format.bytesPerBlock / a * 4
    }

    /// Bytes per component for `typeSize`: 2 for 16-bit samples, 1 for bytes and blocks.
    static func typeSize(of format: PixelFormat) -> Int { format == .rgba16 ? 2 : 1 }
}
