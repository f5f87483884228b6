import Preload
import PreloadGPU

/// The few fields of a KTX2 file's 80-byte header the plugin reads itself, before PreloadGPU's
/// `KTX2File` checks and reads the whole file: what claiming, the size estimate and the
/// refusals by name (Basis Universal, a level count of 0) need. Every other check is
/// `KTX2File`'s.
struct KTX2HeaderFields {
    /// The identifier, the header and the index: what ``init(_:)`` reads.
    static let byteCount = 80

    /// `vkFormat`: 0 (`VK_FORMAT_UNDEFINED`) for Basis Universal's ETC1S and UASTC.
    var vkFormat: UInt32
    var pixelWidth: UInt32
    var pixelHeight: UInt32
    /// `levelCount`: 0 asks the loader to make the mipmap chain.
    var levelCount: UInt32
    /// `supercompressionScheme`: 0 none, 1 BasisLZ, 2 Zstandard, 3 zlib.
    var supercompressionScheme: UInt32
    var dfdByteOffset: UInt32
    var dfdByteLength: UInt32

    /// The fields of `file`, or `nil` when it does not start with KTX2's identifier or ends
    /// before the header does (`KTX2File` then names what is wrong).
    init?(_ file: UnsafeRawBufferPointer) {
        guard file.prefix(KTX2File.identifier.count).elementsEqual(KTX2File.identifier),
            let fields = try? Self(reading: ByteReader(file))
        else { return nil }
        self = fields
    }

    /// The fields at their offsets in the header (`reader` reads the whole file).
    private init(reading reader: ByteReader<UnsafeRawBufferPointer>) throws(TruncatedBytes) {
        try reader.require(Self.byteCount, at: 0, "the KTX2 header")
        vkFormat = try reader.littleEndian(at: 12, "vkFormat")
        pixelWidth = try reader.littleEndian(at: 20, "pixelWidth")
        pixelHeight = try reader.littleEndian(at: 24, "pixelHeight")
        levelCount = try reader.littleEndian(at: 40, "levelCount")
        supercompressionScheme = try reader.littleEndian(at: 44, "supercompressionScheme")
        dfdByteOffset = try reader.littleEndian(at: 48, "dfdByteOffset")
        dfdByteLength = try reader.littleEndian(at: 52, "dfdByteLength")
    }

    /// The colour model of the file's first Data Format Descriptor block (`KHR_DF_MODEL_*`), or
    /// `nil` when the descriptor lies outside `file` or is too short to hold it.
    func colorModel(in file: UnsafeRawBufferPointer) -> UInt8? {
        // dfdTotalSize (4 bytes), vendorId and type (4), version and size (4), then the model.
        let reader = ByteReader(file), start = Int(dfdByteOffset)
        guard dfdByteLength >= 16, (try? reader.require(Int(dfdByteLength), at: start, "the Data Format Descriptor")) != nil else { return nil }
        return try? reader.littleEndian(at: start + 12, as: UInt8.self, "the colour model")
    }

    /// The texture the header promises, for progress weighted by decoded size: `nil` for a
    /// format a `Texture` does not hold or sides that are not a 2D texture's.
    var estimatedByteCount: Int? {
        guard
            let format = PixelFormat.allCases.first(where: { format in
                format.vulkanFormat(colorSpace: .sRGB) == vkFormat || format.vulkanFormat(colorSpace: .linear) == vkFormat
            })
        else { return nil }
        let width = Int(pixelWidth), height = Int(pixelHeight)
        guard width > 0, height > 0, levelCount <= Texture.fullMipLevelCount(width: width, height: height) else { return nil }
        let bytes = Texture.byteCount(width: width, height: height, pixelFormat: format, mipLevelCount: Int(max(levelCount, 1)))
        return bytes < 0 ? nil : bytes
    }
}
