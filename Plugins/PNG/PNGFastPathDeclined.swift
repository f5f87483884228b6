import Preload

/// The error of a decode asked to use the fast path alone (``PNGDecodePath/fastPathOnly``) when
/// the fast path leaves the file to libpng: for tests and benchmarks, never in an automatic decode.
public struct PNGFastPathDeclined: AssetFailure, Equatable {
    /// Why: "interlaced", "16-bit samples", "a chunk's CRC does not match", ...
    public let reason: String

    /// The error for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var category: AssetError.Category { .other }
    public var description: String { "the PNG fast path declined the file: \(reason)" }
}
