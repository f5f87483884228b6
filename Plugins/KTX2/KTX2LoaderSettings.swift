import Preload

/// How the KTX2 plugin loads a file: the largest texture it accepts. Set it on a request's
/// options, or as the ``KTX2Loader``'s defaults:
///
/// ```swift
/// import Preload
/// import PreloadKTX2
///
/// var options = AssetOptions()
/// options[KTX2LoaderSettings.self].limits = ImageLimits(maxWidth: 4096, maxHeight: 4096, maxDecodedBytes: 64 << 20)
/// let sky = AssetRequest(path: "textures/sky.ktx2", options: options)
/// ```
public struct KTX2LoaderSettings: AssetOptionKey, Hashable, Sendable {
    /// What a request that sets nothing loads with (the loader's own defaults apply instead).
    public static let defaultValue = KTX2LoaderSettings()

    /// The largest texture accepted, as for every image plugin: sides of level 0, and the bytes
    /// of every level in the file's format (a block format's compressed bytes, each level
    /// inflated). Checked from the header, before any pixel memory exists.
    public var limits: ImageLimits

    /// Settings with `limits` (the image plugins' defaults unless given).
    public init(limits: ImageLimits = ImageLimits()) {
        self.limits = limits
    }
}
