import Preload

/// Why the KTX2 plugin refused a file before PreloadGPU's `KTX2File` read it: a valid KTX2
/// file of a kind a `Texture` does not hold. Damaged files fail with `KTX2Error` (PreloadGPU),
/// which names the part of the file at fault; both reach the caller as an `AssetError` naming
/// the file.
public enum KTX2LoadError: AssetFailure, Equatable {
    /// The file's levels are Basis Universal's (ETC1S with BasisLZ supercompression, UASTC,
    /// XUASTC): they must be transcoded to a GPU format before upload, which Preload does not do.
    /// `detail` names which and how to turn it into a format Preload loads.
    case basisUniversal(String)
    /// `vkFormat` names a Vulkan format that a `Texture` does not hold (RGB without alpha, BC1
    /// without alpha, BC2, BC6H, ETC2, other ASTC blocks, floats...): `name` is Vulkan's name
    /// for it when known.
    case unsupportedFormat(vkFormat: UInt32, name: String?)

    public var category: AssetError.Category { .unsupported }

    public var description: String {
        switch self {
        case .basisUniversal(let detail): "Basis Universal transcoding is not supported: \(detail)"
        case .unsupportedFormat(let vkFormat, let name):
            "KTX2 format \(name.map { "\($0) (\(vkFormat))" } ?? "vkFormat \(vkFormat)") is not one a Texture holds "
                + "(RGBA8, RGBA16, BC1 with alpha, BC3, BC4, BC5, BC7, ASTC 4x4, 5x5, 6x6, 8x8)"
        }
    }
}
