import Preload
import PreloadGPU

/// The KTX2 loader plugin: claims `.ktx2` files and any file that starts with KTX 2.0's 12-byte
/// identifier, and loads each into a `Texture` as the file holds it: every mipmap level (level 0
/// first), its block or sample format, colour space and alpha mode, Zstandard-supercompressed
/// levels inflated.
///
/// ```swift
/// import Preload
/// import PreloadKTX2
///
/// let coordinator = try PreloadCoordinator(plugins: [KTX2Loader()])
/// ```
///
/// The file is read by PreloadGPU's `KTX2File` (the reader of the files `preload export --ktx2`
/// writes), which checks every field against the file and the specification; the plugin
/// first refuses by name what a `Texture` cannot hold (Basis Universal, formats outside
/// `PixelFormat`). Cube maps, arrays, 3D and 1D textures fail as unsupported (`KTX2Error`); a
/// damaged file fails naming the part at fault; a `levelCount` of 0 loads level 0 with a
/// warning (``Preload/AssetWarning/Code/ktx2MipmapsNotGenerated``).
public struct KTX2Loader: LoaderPlugin {
    /// The settings of a request that sets none of its own.
    public var defaults: KTX2LoaderSettings

    /// A loader whose requests without ``KTX2LoaderSettings`` of their own load with `defaults`.
    public init(defaults: KTX2LoaderSettings = KTX2LoaderSettings()) {
        self.defaults = defaults
    }

    public var identifier: String { "ktx2" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["ktx2"] }
    public var headerLength: Int { KTX2HeaderFields.byteCount }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: KTX2File.identifier)
    }

    /// Every level's bytes in the header's format, when the header names a format a `Texture`
    /// holds and fits the default limits (otherwise the load fails, and the file's size weighs it).
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        let limits = defaults.limits
        return header.withUnsafeBytes { bytes in
            guard let fields = KTX2HeaderFields(bytes), let byteCount = fields.estimatedByteCount,
                fields.pixelWidth <= limits.maxWidth, fields.pixelHeight <= limits.maxHeight, byteCount <= limits.maxDecodedBytes
            else { return nil }
            return byteCount
        }
    }

    /// The settings that apply to `request`: its own, or the loader's defaults.
    public func settings(for request: PlannedRequest) -> KTX2LoaderSettings {
        request.options.contains(KTX2LoaderSettings.self) ? request.options[KTX2LoaderSettings.self] : defaults
    }

    /// Reads the file and loads its texture (``texture(decoding:settings:warn:)``); what the
    /// file was forgiven becomes the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        let contents = try context.readContents()
        return try contents.withUnsafeBytes { file in
            try Self.texture(decoding: file, settings: settings(for: context.request), warn: { try context.warn($0) })
        }
    }

    /// The texture a KTX2 file holds, outside any coordinator (a tool, a test): every level,
    /// level 0 first, as ``KTX2Loader`` loads it.
    /// - Parameters:
    ///   - file: the whole file.
    ///   - settings: the limits the texture must fit.
    ///   - warn: called with each irregularity the file is forgiven.
    /// - Throws: ``KTX2LoadError`` for a Basis Universal texture or a format a `Texture` does not
    ///   hold, `KTX2Error` (PreloadGPU) for anything else: damage, a cube map, an array, a 3D
    ///   texture, zlib supercompression, limits exceeded, libzstd missing.
    public static func texture(
        decoding file: UnsafeRawBufferPointer, settings: KTX2LoaderSettings = KTX2LoaderSettings(), warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        let header = KTX2HeaderFields(file)
        if let header { try BasisUniversalCheck.refuse(header, in: file) }
        let texture: Texture
        do {
            texture = try KTX2File(decoding: file, limits: settings.limits).texture
        } catch KTX2Error.unknownFormat(let vkFormat) {
            throw KTX2LoadError.unsupportedFormat(vkFormat: vkFormat, name: VulkanFormatName.name(of: vkFormat))
        }
        if header?.levelCount == 0 {
            try warn(
                AssetWarning(
                    .ktx2MipmapsNotGenerated,
                    "levelCount is 0, which asks the loader to make the mipmap chain: loaded with level 0 only"))
        }
        return texture
    }
}
