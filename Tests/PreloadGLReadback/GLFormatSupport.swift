/// How a context knows a texture format: listed in `GL_COMPRESSED_TEXTURE_FORMATS`, brought by
/// an extension it lists or by its core version, both, or neither (the driver lacks it).
public struct GLFormatSupport: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits: 1 for ``listed``, 2 for ``byExtension``.
    public let rawValue: Int

    /// A support of `rawValue`'s bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// In `GL_COMPRESSED_TEXTURE_FORMATS` (or an uncompressed format every context has). Mesa
    /// leaves some formats it supports out of this list (desktop GL: BC1 with alpha, RGTC, BPTC, ASTC).
    public static let listed = GLFormatSupport(rawValue: 1)
    /// Brought by an extension the context lists (`GL_KHR_texture_compression_astc_ldr`...) or
    /// by its core version (RGTC in OpenGL 3.0, BPTC in 4.2, ETC2 in 4.3 and ES 3.0, ASTC in ES 3.2).
    public static let byExtension = GLFormatSupport(rawValue: 2)

    public var description: String {
        switch self {
        case []: return "unsupported"
        case .listed: return "listed"
        case .byExtension: return "by extension"
        default: return "listed and by extension"
        }
    }
}
