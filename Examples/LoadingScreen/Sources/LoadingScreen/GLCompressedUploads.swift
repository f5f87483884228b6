import CSDL2
import Preload

/// Block-compressed textures (BC7, ASTC...) given to OpenGL as they are, through the context of
/// SDL's OpenGL renderer: each SDL texture is made as any other (`SDL_CreateTexture`), then its
/// GL texture is bound (`SDL_GL_BindTexture`) and its storage replaced, level by level, with
/// `glCompressedTexImage2D`. The GPU samples the blocks itself: a quarter of the RGBA8 bytes
/// cross the bus and sit in video memory, and nothing is decoded on the CPU.
///
/// What SDL's GL renderer assumes of its textures, and how this keeps to it:
/// - It makes `GL_TEXTURE_2D` textures of the texture's own size where the driver has
///   non-power-of-two textures, and otherwise `GL_TEXTURE_RECTANGLE` ones (which take no
///   compressed format) or padded power-of-two ones; `SDL_GL_BindTexture` tells which by the
///   texture coordinates of the far corner it returns: (1, 1) only for the first, the one kind
///   replaced here.
/// - It sets the filters itself (nearest or linear, no mipmaps) and draws unscaled here: level
///   0 is what shows. The smaller levels are uploaded anyway, with `GL_TEXTURE_MAX_LEVEL` set
///   to the last, so that the texture is complete for a renderer that samples them.
/// - It decodes no sRGB: textures are `GL_RGBA8`, the framebuffer has no `GL_FRAMEBUFFER_SRGB`,
///   and blending works on the bytes as they are, so the screen shows a PNG's stored values.
///   The blocks hold those same sRGB-encoded values (the bake encodes the bytes, then tags the
///   texture sRGB so that a renderer which does decode sRGB gets linear light), so they are
///   uploaded under the UNORM variant of their format (`glInternalFormat(colorSpace: .linear)`):
///   sampling gives back the stored values, as the RGBA8 path draws them. The sRGB variant
///   would turn them into linear light that nothing turns back: a darker picture.
///
/// Made only when SDL's renderer is its OpenGL one; lives on the main thread, where SDL made the
/// GL context current.
final class GLCompressedUploads {
    private typealias CompressedTexImage2D =
        @convention(c) (
            UInt32, Int32, UInt32, Int32, Int32, Int32, Int32, UnsafeRawPointer?
        ) -> Void
    private typealias GetError = @convention(c) () -> UInt32
    private typealias TexParameteri = @convention(c) (UInt32, UInt32, Int32) -> Void

    private static let texture2D: UInt32 = 0x0DE1  // GL_TEXTURE_2D
    private static let textureMaxLevel: UInt32 = 0x813D  // GL_TEXTURE_MAX_LEVEL
    private static let noError: UInt32 = 0  // GL_NO_ERROR

    private let compressedTexImage2D: CompressedTexImage2D
    private let getError: GetError
    private let texParameteri: TexParameteri
    /// The driver, as `GL_RENDERER` names it (`llvmpipe (LLVM 15.0.6, 256 bits)`).
    let driver: String
    /// Formats whose upload failed once (`glGetError`): the rest of them are decoded on the CPU.
    private var failed: Set<PixelFormat> = []

    /// The uploads of `renderer`'s GL context; nil when `renderer` is not SDL's OpenGL renderer or
    /// the context lacks a function they need.
    init?(renderer: OpaquePointer) {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name, String(cString: name) == "opengl",
            let compressed = SDL_GL_GetProcAddress("glCompressedTexImage2D"), let getError = SDL_GL_GetProcAddress("glGetError"),
            let parameter = SDL_GL_GetProcAddress("glTexParameteri"), let getString = SDL_GL_GetProcAddress("glGetString")
        else { return nil }
        compressedTexImage2D = unsafeBitCast(compressed, to: CompressedTexImage2D.self)
        self.getError = unsafeBitCast(getError, to: GetError.self)
        texParameteri = unsafeBitCast(parameter, to: TexParameteri.self)
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<CChar>?
        let renderer = unsafeBitCast(getString, to: GetString.self)(0x1F01)  // GL_RENDERER
        driver = renderer.map { String(cString: $0) } ?? "an unnamed driver"
    }

    /// The extension that brings `format` to OpenGL.
    static func `extension`(for format: PixelFormat) -> String? {
        switch format {
        case .bc1, .bc3: return "GL_EXT_texture_compression_s3tc"
        case .bc4, .bc5: return "GL_ARB_texture_compression_rgtc"
        case .bc7: return "GL_ARB_texture_compression_bptc"
        case .astc4x4, .astc5x5, .astc6x6, .astc8x8: return "GL_KHR_texture_compression_astc_ldr"
        case .rgba8, .rgba16: return nil
        }
    }

    /// Why `format` cannot go to the GPU compressed, or nil when it can.
    func refusal(for format: PixelFormat) -> String? {
        guard let name = Self.extension(for: format) else { return "\(format) is not a compressed format" }
        guard SDL_GL_ExtensionSupported(name) == SDL_TRUE else { return "\(driver) lacks \(name)" }
        if failed.contains(format) { return "\(driver) refused a \(format) upload (glGetError)" }
        return nil
    }

    /// Replaces the storage of `target` (an SDL texture of `texture`'s size) with `texture`'s
    /// levels, blocks as they are. Returns nil when done, else why not: then `target` is as it was
    /// if SDL's texture is not a `GL_TEXTURE_2D` of its size, and its storage is undefined if the
    /// driver refused the upload (make a new one).
    func upload(_ texture: Texture, into target: OpaquePointer) -> String? {
        var farX: Float = 0
        var farY: Float = 0
        guard SDL_GL_BindTexture(target, &farX, &farY) == 0 else { return "SDL_GL_BindTexture: \(String(cString: SDL_GetError()))" }
        defer { SDL_GL_UnbindTexture(target) }
        guard farX == 1, farY == 1 else { return "SDL's GL textures are rectangle or padded textures here, which take no compressed format" }
        // Errors left by earlier calls (SDL's) are not this upload's.
        for _ in 0..<16 where getError() != Self.noError {}
        let format = texture.pixelFormat.glInternalFormat(colorSpace: .linear)
        texture.pixels.withUnsafeBytes { pixels in
            for (number, level) in texture.levels.enumerated() {
                compressedTexImage2D(
                    Self.texture2D, Int32(number), format, Int32(level.width), Int32(level.height), 0, Int32(level.byteCount),
                    pixels.baseAddress! + level.offset)
            }
        }
        texParameteri(Self.texture2D, Self.textureMaxLevel, Int32(texture.mipLevelCount - 1))
        let error = getError()
        guard error == Self.noError else {
            failed.insert(texture.pixelFormat)
            return "\(driver) refused a \(texture.pixelFormat) upload (glGetError 0x\(String(error, radix: 16)))"
        }
        return nil
    }
}
