/// The numbers graphics APIs give each ``PixelFormat``, so an engine uploads a texture without a
/// table of its own: `VkFormat` for Vulkan (and KTX2's `vkFormat`), the sized internal format for
/// OpenGL and OpenGL ES (`glCompressedTexImage2D`, `glTexImage2D`).
///
/// ```swift
/// import Preload
///
/// let format = PixelFormat.bc7
/// print(format.vulkanFormat(colorSpace: .sRGB))      // 146: VK_FORMAT_BC7_SRGB_BLOCK
/// print(format.glInternalFormat(colorSpace: .sRGB))  // 36493 (0x8E8D): GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM
/// ```
extension PixelFormat {
    /// The `VkFormat` that samples this format as `colorSpace` says. BC4 and BC5 have no sRGB
    /// form, so they give their `UNORM` format either way (the shader decodes sRGB if it must).
    public func vulkanFormat(colorSpace: ColorSpace) -> UInt32 {
        let srgb: UInt32 = colorSpace == .sRGB ? 1 : 0
        switch self {
        case .rgba8: return colorSpace == .sRGB ? 43 : 37  // VK_FORMAT_R8G8B8A8_SRGB, _UNORM
        case .rgba16: return 91  // VK_FORMAT_R16G16B16A16_UNORM
        case .bc1: return 133 + srgb  // VK_FORMAT_BC1_RGBA_UNORM_BLOCK, _SRGB_BLOCK
        case .bc3: return 137 + srgb  // VK_FORMAT_BC3_UNORM_BLOCK, _SRGB_BLOCK
        case .bc4: return 139  // VK_FORMAT_BC4_UNORM_BLOCK
        case .bc5: return 141  // VK_FORMAT_BC5_UNORM_BLOCK
        case .bc7: return 145 + srgb  // VK_FORMAT_BC7_UNORM_BLOCK, _SRGB_BLOCK
        case .astc4x4: return 157 + srgb  // VK_FORMAT_ASTC_4x4_UNORM_BLOCK, _SRGB_BLOCK
        case .astc5x5: return 161 + srgb
        case .astc6x6: return 165 + srgb
        case .astc8x8: return 171 + srgb
        }
    }

    /// The OpenGL (and OpenGL ES) sized internal format that samples this format as `colorSpace`
    /// says: `GL_SRGB8_ALPHA8`, `GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM`, `GL_COMPRESSED_RGBA_ASTC_4x4_KHR`...
    /// BC4 and BC5 have no sRGB form: `GL_COMPRESSED_RED_RGTC1` and `GL_COMPRESSED_RG_RGTC2`.
    public func glInternalFormat(colorSpace: ColorSpace) -> UInt32 {
        let srgb = colorSpace == .sRGB
        switch self {
        case .rgba8: return srgb ? 0x8C43 : 0x8058  // GL_SRGB8_ALPHA8, GL_RGBA8
        case .rgba16: return 0x805B  // GL_RGBA16
        case .bc1: return srgb ? 0x8C4D : 0x83F1  // GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
        case .bc3: return srgb ? 0x8C4F : 0x83F3  // GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT
        case .bc4: return 0x8DBB  // GL_COMPRESSED_RED_RGTC1
        case .bc5: return 0x8DBD  // GL_COMPRESSED_RG_RGTC2
        case .bc7: return srgb ? 0x8E8D : 0x8E8C  // GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, GL_COMPRESSED_RGBA_BPTC_UNORM
        case .astc4x4: return srgb ? 0x93D0 : 0x93B0  // GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4x4_KHR, GL_COMPRESSED_RGBA_ASTC_4x4_KHR
        case .astc5x5: return srgb ? 0x93D2 : 0x93B2
        case .astc6x6: return srgb ? 0x93D4 : 0x93B4
        case .astc8x8: return srgb ? 0x93D7 : 0x93B7
        }
    }
}
