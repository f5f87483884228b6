/// A texture bakes as its rows (kind `texture`: RGBA8 or RGBA16, the record giving the size,
/// the sample width and the alpha mode), or, in a GPU format, with mipmaps or in linear colour,
/// as a ``BakedGPUTexture`` entry (kind `gpuTexture`). Either loads as a view of the mapped pack.
extension Texture: BakeableAsset {
    /// `texture`.
    public static var bakedKind: String { "texture" }
    /// `gpuTexture`: the GPU form's entries.
    public static var otherBakedKinds: [String] { [gpuKind] }
    /// The kind name of a texture in a GPU format or with mipmaps.
    public static let gpuKind = "gpuTexture"

    /// The kind bits: 16-bit samples (rows only) and premultiplied alpha.
    private static let rgba16Bit: UInt8 = 1, premultipliedBit: UInt8 = 2

    /// Whether the texture bakes in its GPU form (``BakedGPUTexture``) rather than as rows.
    public var bakesAsGPUTexture: Bool { pixelFormat.isBlockCompressed || mipLevelCount > 1 || colorSpace != .sRGB }

    public func baked(pageEntries: [Int]) throws -> BakedEntry {
        guard !bakesAsGPUTexture else { return bakedAsGPUTexture(quality: nil) }
        return BakedEntry(bytes: pixels, width: width, height: height, kindBits: alphaBit | (pixelFormat == .rgba16 ? Self.rgba16Bit : 0))
    }

    /// The texture's entry in its GPU form (``BakedGPUTexture``), whatever its format, keeping
    /// `quality` (the PSNR a GPU bake measured against the source, dB; `.infinity` when exact)
    /// for reports.
    public func bakedAsGPUTexture(quality: Double?) -> BakedEntry {
        BakedEntry(bytes: BakedGPUTexture.encode(self, quality: quality), width: width, height: height, kindBits: alphaBit, kind: Self.gpuKind)
    }

    private var alphaBit: UInt8 { alphaMode == .premultiplied ? Self.premultipliedBit : 0 }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        let alphaMode: AlphaMode = entry.kindBits & premultipliedBit != 0 ? .premultiplied : .straight
        let fits = entry.width <= Int(Int32.max) && entry.height <= Int(Int32.max)
        if entry.kind == gpuKind {
            guard fits, entry.bytes.count >= BakedGPUTexture.headerSize else {
                throw entry.malformed("a \(entry.width)x\(entry.height) GPU texture of \(entry.bytes.count) bytes")
            }
            let header = try entry.bytes.withUnsafeBytes { bytes in
                try BakedGPUTexture.header(of: bytes, width: entry.width, height: entry.height, malformed: entry.malformed)
            }
            return Texture(
                width: entry.width, height: entry.height, pixelFormat: header.format, alphaMode: alphaMode, colorSpace: header.colorSpace,
                mipLevelCount: header.levelCount, pixels: entry.bytes.extracting(header.levelsStart..<entry.bytes.count))
        }
        let format: PixelFormat = entry.kindBits & rgba16Bit != 0 ? .rgba16 : .rgba8
        let (pixels, overflowPixels) = entry.width.multipliedReportingOverflow(by: entry.height)
        let (bytes, overflowBytes) = pixels.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard fits, !overflowPixels, !overflowBytes, bytes == entry.bytes.count else {
            throw entry.malformed("a \(entry.width)x\(entry.height) \(format) texture is not \(entry.bytes.count) bytes")
        }
        return Texture(width: entry.width, height: entry.height, pixelFormat: format, alphaMode: alphaMode, pixels: entry.bytes)
    }
}
