import CPreloadGLReadback
import Preload
import PreloadConcurrency
import PreloadGPU

/// A headless OpenGL or OpenGL ES context that uploads textures and reads every mip level back
/// as RGBA8, to check what a driver decodes from blocks a test (or an encoder) wrote. On a
/// machine without a GPU this is Mesa's llvmpipe through EGL's surfaceless platform: no X
/// server, no window. Nothing is linked: `libEGL.so.1` (Debian's `libegl1`) is opened at run
/// time, and every EGL and GL function is resolved through it.
///
/// ```swift
/// import Preload
/// import PreloadGLReadback
///
/// let gl = try GLReadback.open()
/// let block: [UInt8] = [0x00, 0xF8, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00]  // BC1: all red
/// let levels = try gl.readBack(format: .bc1, colorSpace: .linear, width: 4, height: 4, pixels: block)
/// print(levels[0].pixels.prefix(4))  // [255, 0, 0, 255]
/// ```
///
/// What comes back is what the texture stores: an sRGB texture's bytes sRGB-encoded, as
/// uploaded (desktop GL's `glGetTexImage` does not convert them; drawing writes them to an sRGB
/// framebuffer, which encodes again what `texelFetch` decoded: the same bytes, checked for all
/// 256). One-channel formats come back as (r, 0, 0, 255), two-channel ones as (r, g, 0, 255).
///
/// One context serves one call at a time (a lock); contexts of one process share EGL's display.
/// Each call makes its context current on the calling thread and releases it before returning:
/// call from a thread without a GL context of its own (a game's render thread would lose its).
public final class GLReadback: Sendable {
    /// The API a context speaks.
    public enum API: Sendable, Hashable, CaseIterable {
        /// OpenGL 4.5, core profile: levels read with `glGetTexImage`.
        case desktopCore
        /// OpenGL 4.5, compatibility profile.
        case desktopCompatibility
        /// OpenGL ES 3.2: no `glGetTexImage`, so levels are drawn and read with `glReadPixels`.
        case es

        var code: Int32 {
            switch self {
            case .desktopCore: return Int32(PRELOAD_GL_API_DESKTOP_CORE)
            case .desktopCompatibility: return Int32(PRELOAD_GL_API_DESKTOP_COMPATIBILITY)
            case .es: return Int32(PRELOAD_GL_API_ES)
            }
        }
    }

    /// How levels are read back.
    public enum Method: Sendable, Hashable {
        /// `glGetTexImage` on desktop OpenGL, drawing on OpenGL ES.
        case automatic
        /// `glGetTexImage(GL_RGBA, GL_UNSIGNED_BYTE)` (desktop OpenGL only). Mesa 22.3's llvmpipe
        /// gives level 0 of an ASTC texture with more than one level back wrong this way (drawing
        /// reads it right): read mipmapped ASTC with ``draw``.
        case getTexImage
        /// A fullscreen triangle copies `texelFetch` of each level into an RGBA8 framebuffer
        /// (SRGB8_ALPHA8 for an sRGB texture), read with `glReadPixels` (either API).
        case draw

        var code: Int32 {
            switch self {
            case .automatic: return Int32(PRELOAD_GL_READ_AUTOMATIC)
            case .getTexImage: return Int32(PRELOAD_GL_READ_GET_TEX_IMAGE)
            case .draw: return Int32(PRELOAD_GL_READ_DRAW)
            }
        }
    }

    /// The API this context speaks.
    public let api: API
    /// The driver: `GL_VENDOR`, `GL_RENDERER` and `GL_VERSION` ("Mesa/X.org llvmpipe (LLVM 15.0.6,
    /// 256 bits) 4.5 (Core Profile) Mesa 22.3.6").
    public let driver: String
    /// The C context, as bits (an address only this object frees), used under the lock.
    private let context: PreloadMutex<UInt>

    private init(api: API, driver: String, context: UInt) {
        self.api = api
        self.driver = driver
        self.context = PreloadMutex(context)
    }

    deinit {
        context.withLock { preload_gl_close(OpaquePointer(bitPattern: $0)) }
    }

    /// A desktop OpenGL 4.5 core context, opened on first use and shared by the process's tests
    /// (each call takes the context's lock).
    public static let desktop = Result { () throws(GLReadbackError) -> GLReadback in try open(api: .desktopCore) }

    /// An OpenGL ES 3.2 context, opened on first use and shared like ``desktop``.
    public static let es = Result { () throws(GLReadbackError) -> GLReadback in try open(api: .es) }

    /// `eglGetProcAddress` of `libEGL.so.1`, opened once.
    private static let getProcAddress = Result { () throws(MissingSystemLibrary) -> preload_gl_get_proc_address in
        let library = try SystemLibrary.open("libEGL", fileNames: ["libEGL.so.1"], package: "libegl1")
        return try library.function("eglGetProcAddress", as: preload_gl_get_proc_address.self)
    }

    /// A new headless context of `api`.
    /// - Throws: ``GLReadbackError`` whose ``GLReadbackError/isUnavailable`` is true when this
    ///   machine has no EGL library, no driver or no context of `api`.
    public static func open(api: API = .desktopCore) throws(GLReadbackError) -> GLReadback {
        let getProcAddress: preload_gl_get_proc_address
        do {
            getProcAddress = try Self.getProcAddress.get()
        } catch {
            throw GLReadbackError(kind: .missingLibrary, message: error.description, missingLibrary: error)
        }
        var context: OpaquePointer?
        let status = preload_gl_open(getProcAddress, api.code, &context)
        guard status == PRELOAD_GL_OK, let context else {
            let message = String(cString: preload_gl_message(context))
            preload_gl_close(context)
            throw GLReadbackError(kind: Self.kind(of: status), message: message)
        }
        let driver = String(cString: preload_gl_description(context))
        return GLReadback(api: api, driver: driver, context: UInt(bitPattern: context))
    }

    /// How the driver knows `internalFormat` (a sized internal format: `GL_RGBA8`,
    /// `GL_COMPRESSED_RGBA_BPTC_UNORM`...): empty when it lacks it or the harness does not know it.
    public func support(internalFormat: UInt32) -> GLFormatSupport {
        GLFormatSupport(rawValue: Int(context.withLock { preload_gl_format_support(OpaquePointer(bitPattern: $0), internalFormat) }))
    }

    /// Whether the driver takes `internalFormat`, listed or by extension.
    public func supports(internalFormat: UInt32) -> Bool {
        !support(internalFormat: internalFormat).isEmpty
    }

    /// Uploads `pixels`, `mipLevelCount` levels of `format` one after another as `Texture`
    /// holds them, as `format.glInternalFormat(colorSpace:)`, and reads each level back.
    /// - Returns: one image a level, level 0 first.
    /// - Throws: ``GLReadbackError``: ``GLReadbackError/Kind/unsupportedFormat`` when the driver
    ///   lacks the format, ``GLReadbackError/Kind/glError`` when it rejects the data.
    public func readBack(
        format: PixelFormat, colorSpace: ColorSpace, width: Int, height: Int, mipLevelCount: Int = 1, pixels: [UInt8],
        method: Method = .automatic
    ) throws(GLReadbackError) -> [RGBAImage] {
        try readBack(
            internalFormat: format.glInternalFormat(colorSpace: colorSpace), width: width, height: height, mipLevelCount: mipLevelCount,
            method: method
        ) { body in pixels.withUnsafeBytes(body) }
    }

    /// Uploads every level of `texture` and reads each back (its format in its colour space).
    public func readBack(_ texture: Texture, method: Method = .automatic) throws(GLReadbackError) -> [RGBAImage] {
        try readBack(
            internalFormat: texture.pixelFormat.glInternalFormat(colorSpace: texture.colorSpace), width: texture.width,
            height: texture.height, mipLevelCount: texture.mipLevelCount, method: method
        ) { body in texture.pixels.withUnsafeBytes(body) }
    }

    /// Uploads `pixels` as `internalFormat` (any the harness knows: S3TC, RGTC, BPTC, ETC2/EAC,
    /// ASTC LDR 4x4 to 12x12, `GL_RGBA8`, `GL_SRGB8_ALPHA8`) and reads each level back.
    public func readBack(
        internalFormat: UInt32, width: Int, height: Int, mipLevelCount: Int = 1, pixels: [UInt8], method: Method = .automatic
    ) throws(GLReadbackError) -> [RGBAImage] {
        try readBack(internalFormat: internalFormat, width: width, height: height, mipLevelCount: mipLevelCount, method: method) { body in
            pixels.withUnsafeBytes(body)
        }
    }

    private func readBack(
        internalFormat: UInt32, width: Int, height: Int, mipLevelCount: Int, method: Method,
        withBytes: ((UnsafeRawBufferPointer) -> Int32) -> Int32
    ) throws(GLReadbackError) -> [RGBAImage] {
        guard width >= 1, height >= 1, width <= 16384, height <= 16384,
            mipLevelCount >= 1, mipLevelCount <= Texture.fullMipLevelCount(width: width, height: height)
        else {
            throw GLReadbackError(kind: .badArgument, message: "no texture of \(width)x\(height) with \(mipLevelCount) levels")
        }
        let sizes = (0..<mipLevelCount).map { (width: max(width >> $0, 1), height: max(height >> $0, 1)) }
        var rgba = [UInt8](repeating: 0, count: sizes.reduce(0) { $0 + $1.width * $1.height * 4 })
        var glError: UInt32 = 0
        var message = ""
        let status = context.withLock { bits in
            let context = OpaquePointer(bitPattern: bits)
            let status = rgba.withUnsafeMutableBytes { output in
                withBytes { input in
                    preload_gl_read_back(
                        context, internalFormat, Int32(width), Int32(height), Int32(mipLevelCount),
                        input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, method.code,
                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), &glError)
                }
            }
            if status != PRELOAD_GL_OK { message = String(cString: preload_gl_message(context)) }
            return status
        }
        guard status == PRELOAD_GL_OK else { throw GLReadbackError(kind: Self.kind(of: status), message: message, glError: glError) }
        var offset = 0
        return sizes.map { size in
            let count = size.width * size.height * 4
            defer { offset += count }
            return RGBAImage(width: size.width, height: size.height, pixels: Array(rgba[offset..<offset + count]))
        }
    }

    private static func kind(of status: Int32) -> GLReadbackError.Kind {
        switch Int(status) {
        case Int(PRELOAD_GL_NO_EGL): return .missingLibrary
        case Int(PRELOAD_GL_NO_DISPLAY): return .noDisplay
        case Int(PRELOAD_GL_NO_CONTEXT): return .noContext
        case Int(PRELOAD_GL_NO_FUNCTION): return .missingFunction
        case Int(PRELOAD_GL_UNSUPPORTED_FORMAT): return .unsupportedFormat
        case Int(PRELOAD_GL_ERROR): return .glError
        case Int(PRELOAD_GL_DRAW_FAILED): return .drawFailed
        default: return .badArgument
        }
    }
}
