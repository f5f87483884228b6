/// The layout of a texture's pixels: decoded samples (``rgba8``, ``rgba16``), or blocks of a GPU
/// compression format, uploaded as they are (`glCompressedTexImage2D`, a Vulkan buffer-to-image
/// copy) and decoded by the GPU when sampled.
///
/// Decoders give ``rgba8`` or ``rgba16``; block formats come from a GPU bake
/// (`preload bake --gpu bc|astc`). A texture in a block format has its pixels in blocks of
/// ``blockWidth`` × ``blockHeight`` pixels, ``bytesPerBlock`` bytes each, row of blocks after row
/// of blocks; a partial block at the right or bottom edge is stored whole.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Red, green, blue, alpha; one byte each.
    case rgba8
    /// Red, green, blue, alpha; one `UInt16` each, in the host's byte order.
    case rgba16
    /// BC1 (DXT1, S3TC): 4×4 pixels in 8 bytes, colour with 1-bit alpha.
    case bc1
    /// BC3 (DXT5): 4×4 pixels in 16 bytes, colour with interpolated alpha.
    case bc3
    /// BC4 (RGTC1): 4×4 pixels in 8 bytes, one channel (red).
    case bc4
    /// BC5 (RGTC2): 4×4 pixels in 16 bytes, two channels (red, green).
    case bc5
    /// BC7 (BPTC): 4×4 pixels in 16 bytes, colour and alpha.
    case bc7
    /// ASTC, 4×4 pixels in 16 bytes (8 bits per pixel), LDR colour and alpha.
    case astc4x4
    /// ASTC, 5×5 pixels in 16 bytes (5.12 bits per pixel).
    case astc5x5
    /// ASTC, 6×6 pixels in 16 bytes (3.56 bits per pixel).
    case astc6x6
    /// ASTC, 8×8 pixels in 16 bytes (2 bits per pixel).
    case astc8x8

    /// Whether the pixels are blocks of a GPU compression format, not decoded samples.
    public var isBlockCompressed: Bool { self != .rgba8 && self != .rgba16 }

    /// Width of a block in pixels: 1 for decoded formats.
    public var blockWidth: Int {
        switch self {
        case .rgba8, .rgba16: 1
        case .bc1, .bc3, .bc4, .bc5, .bc7, .astc4x4: 4
        case .astc5x5: 5
        case .astc6x6: 6
        case .astc8x8: 8
        }
    }

    /// Height of a block in pixels: 1 for decoded formats.
    public var blockHeight: Int { blockWidth }

    /// Bytes one block takes (one pixel's bytes for decoded formats).
    public var bytesPerBlock: Int {
        switch self {
        case .rgba8: 4
        case .rgba16: 8
        case .bc1, .bc4: 8
        case .bc3, .bc5, .bc7, .astc4x4, .astc5x5, .astc6x6, .astc8x8: 16
        }
    }

    /// Bytes one pixel takes in a decoded format (4 or 8). For a block format this is the
    /// block's bytes, which hold more than one pixel: use ``byteCount(width:height:)``.
    public var bytesPerPixel: Int { bytesPerBlock }

    /// Bytes an image of `width` × `height` pixels takes in this format (whole blocks), or `nil`
    /// when that does not fit in an `Int`.
    public func byteCount(width: Int, height: Int) -> Int? {
        guard width >= 0, height >= 0 else { return nil }
        let across = (width + blockWidth - 1) / blockWidth, down = (height + blockHeight - 1) / blockHeight
        let (blocks, overflow) = across.multipliedReportingOverflow(by: down)
        let (bytes, overflowBytes) = blocks.multipliedReportingOverflow(by: bytesPerBlock)
        return overflow || overflowBytes ? nil : bytes
    }

    public var description: String { rawValue }
}

/// What a texture's colour samples mean, so that an engine picks the GPU format that samples them
/// right (`VK_FORMAT_BC7_SRGB_BLOCK` or `..._UNORM_BLOCK`, `GL_SRGB8_ALPHA8` or `GL_RGBA8`).
public enum ColorSpace: String, Hashable, Sendable {
    /// sRGB-encoded colour (images, sprites, what PNG and JPEG files hold): the GPU converts to
    /// linear light when sampling an sRGB format. Alpha is always linear.
    case sRGB
    /// Linear values (normal maps, masks, data): sampled as they are.
    case linear
}

/// How colour relates to alpha in a texture's pixels.
public enum AlphaMode: String, Hashable, Sendable {
    /// Colour samples are stored as they are, independent of alpha (PNG's own convention).
    case straight
    /// Colour samples are already multiplied by alpha (what most GPU blending wants).
    case premultiplied
}

/// An image ready for the GPU: decoded rows (``PixelFormat/rgba8``, ``PixelFormat/rgba16``) or
/// blocks of a GPU compression format, with its mipmap chain when it was baked with one.
///
/// Rows are tightly packed, top to bottom, no padding between rows (for a block format: rows of
/// blocks). ``pixels`` holds level 0 first, then each smaller mipmap level right after the one
/// before (``levels`` says where each starts); a decoder gives one level.
///
/// Pixels are written once by the decoder, into pooled memory when large (``AssetBytes``);
/// copies of a `Texture` share them.
public struct Texture: Asset, Hashable {
    // 32-bit sizes and one-byte fields keep the struct within an existential's inline buffer
    // (three words), so an `any Asset` holding a texture needs no extra heap box.
    private let storedWidth: Int32
    private let storedHeight: Int32
    /// Width in pixels (of level 0).
    public var width: Int { Int(storedWidth) }
    /// Height in pixels (of level 0).
    public var height: Int { Int(storedHeight) }
    /// How the pixels are stored: ``PixelFormat/rgba8`` (4 bytes), ``PixelFormat/rgba16`` (8 bytes,
    /// native-endian samples), or a GPU block format.
    public let pixelFormat: PixelFormat
    /// Whether colour is straight or premultiplied by alpha.
    public let alphaMode: AlphaMode
    /// What the colour samples mean: ``ColorSpace/sRGB`` unless the texture says otherwise.
    public let colorSpace: ColorSpace
    private let storedLevelCount: UInt8
    /// Every level's bytes, level 0 first: `height` rows of `bytesPerRow` bytes, then the next
    /// level's. For ``PixelFormat/rgba16`` each sample is a host-order `UInt16`; read them with
    /// ``sample16(x:y:channel:)`` or by rebinding memory.
    public let pixels: AssetBytes

    /// Wraps pixels. `pixels.count` must be ``byteCount(width:height:pixelFormat:mipLevelCount:)``
    /// (`width * height * pixelFormat.bytesPerPixel` for one decoded level).
    /// - Parameters:
    ///   - width: level 0's width in pixels.
    ///   - height: level 0's height in pixels.
    ///   - pixelFormat: how the pixels are stored.
    ///   - alphaMode: whether colour is premultiplied by alpha.
    ///   - colorSpace: what the colour samples mean (sRGB unless said).
    ///   - mipLevelCount: levels held, 1 (no mipmaps) up to ``fullMipLevelCount(width:height:)``:
    ///     each next level halves the one before, rounding down, never below 1.
    ///   - pixels: every level's bytes, level 0 first.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, alphaMode: AlphaMode, colorSpace: ColorSpace = .sRGB,
        mipLevelCount: Int = 1, pixels: AssetBytes
    ) {
        precondition(width >= 0 && height >= 0 && width <= Int32.max && height <= Int32.max, "bad texture size")
        if mipLevelCount == 1, pixelFormat == .rgba8 || pixelFormat == .rgba16 {
            // What every decoder makes, on every load: one multiplication, as before mipmaps.
            precondition(pixels.count == width * height * pixelFormat.bytesPerPixel, "pixel count mismatch")
        } else {
            precondition(
                mipLevelCount >= 1 && mipLevelCount <= Texture.fullMipLevelCount(width: width, height: height), "bad mipmap level count")
            precondition(
                pixels.count == Texture.byteCount(width: width, height: height, pixelFormat: pixelFormat, mipLevelCount: mipLevelCount),
                "pixel count mismatch")
        }
        storedWidth = Int32(width)
        storedHeight = Int32(height)
        self.pixelFormat = pixelFormat
        self.alphaMode = alphaMode
        self.colorSpace = colorSpace
        storedLevelCount = UInt8(mipLevelCount)
        self.pixels = pixels
    }

    /// Wraps pixels in an array, without copying them.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, alphaMode: AlphaMode, colorSpace: ColorSpace = .sRGB,
        mipLevelCount: Int = 1, pixels: [UInt8]
    ) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat, alphaMode: alphaMode, colorSpace: colorSpace,
            mipLevelCount: mipLevelCount, pixels: AssetBytes(pixels))
    }

    public var kind: AssetKind { .texture }
    /// Bytes the texture holds: every level, in its format (a block format's compressed bytes).
    public var byteCount: Int { pixels.count }
    /// Bytes in one row of level 0 (rows are tightly packed, top row first); for a block format,
    /// one row of blocks.
    public var bytesPerRow: Int { (width + pixelFormat.blockWidth - 1) / pixelFormat.blockWidth * pixelFormat.bytesPerBlock }

    /// How many mipmap levels ``pixels`` holds: 1 when it has only the image itself.
    public var mipLevelCount: Int { Int(storedLevelCount) }

    /// Where each level is in ``pixels``, level 0 first.
    public var levels: [MipLevel] {
        var levels: [MipLevel] = []
        var offset = 0, levelWidth = width, levelHeight = height
        for _ in 0..<mipLevelCount {
            let count = pixelFormat.byteCount(width: levelWidth, height: levelHeight) ?? 0
            levels.append(MipLevel(width: levelWidth, height: levelHeight, offset: offset, byteCount: count))
            offset += count
            levelWidth = max(1, levelWidth / 2)
            levelHeight = max(1, levelHeight / 2)
        }
        return levels
    }

    /// Levels in a full mipmap chain of a `width` × `height` image: down to 1 × 1 (a 256 × 64
    /// image has 9: 256 × 64, 128 × 32, ..., 1 × 1).
    public static func fullMipLevelCount(width: Int, height: Int) -> Int {
        var side = max(width, height, 1), count = 1
        while side > 1 {
            side /= 2
            count += 1
        }
        return count
    }

    /// Bytes a texture of this size, format and number of levels holds, or `-1` when it does not
    /// fit in an `Int`.
    public static func byteCount(width: Int, height: Int, pixelFormat: PixelFormat, mipLevelCount: Int) -> Int {
        var total = 0, levelWidth = width, levelHeight = height
        for _ in 0..<max(mipLevelCount, 1) {
            guard let count = pixelFormat.byteCount(width: levelWidth, height: levelHeight) else { return -1 }
            let (sum, overflow) = total.addingReportingOverflow(count)
            if overflow { return -1 }
            total = sum
            levelWidth = max(1, levelWidth / 2)
            levelHeight = max(1, levelHeight / 2)
        }
        return total
    }

    /// The RGBA8 pixel at (`x`, `y`), top-left origin. Only for ``PixelFormat/rgba8``.
    public func rgba8(x: Int, y: Int) -> SIMD4<UInt8> {
        precondition(pixelFormat == .rgba8, "rgba8(x:y:) on a \(pixelFormat) texture")
        let offset = y * bytesPerRow + x * 4
        return SIMD4(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// One 16-bit sample (`channel` 0...3 = R, G, B, A) at (`x`, `y`). Only for
    /// ``PixelFormat/rgba16``.
    public func sample16(x: Int, y: Int, channel: Int) -> UInt16 {
        precondition(pixelFormat == .rgba16, "sample16(x:y:channel:) on a \(pixelFormat) texture")
        let offset = y * bytesPerRow + x * 8 + channel * 2
        return pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
    }
}

/// One level of a texture's mipmap chain: its size and where its bytes are in ``Texture/pixels``.
public struct MipLevel: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Where the level starts in ``Texture/pixels``.
    public var offset: Int
    /// Bytes the level takes (whole blocks for a block format).
    public var byteCount: Int

    /// A level of `width` × `height` pixels, `byteCount` bytes from `offset`.
    public init(width: Int, height: Int, offset: Int, byteCount: Int) {
        self.width = width
        self.height = height
        self.offset = offset
        self.byteCount = byteCount
    }
}
