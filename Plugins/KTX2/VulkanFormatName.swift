/// Vulkan's names for the formats KTX2 files hold most (`VkFormat`'s numbers, which KTX2's
/// `vkFormat` uses), for an error that names a format a `Texture` does not hold.
enum VulkanFormatName {
    /// `VK_FORMAT_..._` without its prefix (`"R8G8B8_SRGB"`, `"BC6H_UFLOAT_BLOCK"`), or `nil`
    /// for a number outside the families named here (packed, depth, 64-bit, multi-planar).
    static func name(of vkFormat: UInt32) -> String? {
        let number = Int(vkFormat)
        let eightBit = ["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SRGB"]
        let sixteenBit = ["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SFLOAT"]
        switch number {
        case 9...50:  // R8, R8G8, R8G8B8, B8G8R8, R8G8B8A8, B8G8R8A8: seven variants each
            let channels = ["R8", "R8G8", "R8G8B8", "B8G8R8", "R8G8B8A8", "B8G8R8A8"][(number - 9) / 7]
            return channels + "_" + eightBit[(number - 9) % 7]
        case 70...97:
            return ["R16", "R16G16", "R16G16B16", "R16G16B16A16"][(number - 70) / 7] + "_" + sixteenBit[(number - 70) % 7]
        case 98...109:
            return ["R32", "R32G32", "R32G32B32", "R32G32B32A32"][(number - 98) / 3] + "_" + ["UINT", "SINT", "SFLOAT"][(number - 98) % 3]
        case 122: return "B10G11R11_UFLOAT_PACK32"
        case 123: return "E5B9G9R9_UFLOAT_PACK32"
        case 131...146:
            let names = [
                "BC1_RGB_UNORM", "BC1_RGB_SRGB", "BC1_RGBA_UNORM", "BC1_RGBA_SRGB", "BC2_UNORM", "BC2_SRGB", "BC3_UNORM", "BC3_SRGB",
                "BC4_UNORM", "BC4_SNORM", "BC5_UNORM", "BC5_SNORM", "BC6H_UFLOAT", "BC6H_SFLOAT", "BC7_UNORM", "BC7_SRGB",
            ]
            return names[number - 131] + "_BLOCK"
        case 147...152:
            return ["ETC2_R8G8B8", "ETC2_R8G8B8A1", "ETC2_R8G8B8A8"][(number - 147) / 2] + ((number - 147) % 2 == 0 ? "_UNORM" : "_SRGB") + "_BLOCK"
        case 153...156:
            return ["EAC_R11", "EAC_R11G11"][(number - 153) / 2] + ((number - 153) % 2 == 0 ? "_UNORM" : "_SNORM") + "_BLOCK"
        case 157...184:
            let sizes = ["4x4", "5x4", "5x5", "6x5", "6x6", "8x5", "8x6", "8x8", "10x5", "10x6", "10x8", "10x10", "12x10", "12x12"]
            return "ASTC_" + sizes[(number - 157) / 2] + ((number - 157) % 2 == 0 ? "_UNORM" : "_SRGB") + "_BLOCK"
        default: return nil
        }
    }
}
