import Preload

/// Why an APNG did not load as an animation, naming the chunk, frame or sequence number at
/// fault. The description leaves out the file (the coordinator's `AssetError` puts its path in
/// front).
public enum APNGError: AssetFailure, Equatable {
    /// The file is not a PNG (no PNG signature, or no IHDR chunk first).
    case notPNG(detail: String)
    /// The file is damaged: a sequence number out of order, an `fdAT` before any `fcTL`, a frame
    /// outside the canvas or without image data, an `acTL` promising frames that are not there,
    /// a bad CRC on a chunk the animation needs, a frame's image data that does not decode.
    case malformed(detail: String)
    /// The file ends before a chunk, or a frame's image data, does.
    case truncated(detail: String)
    /// The frames together would take more pixel memory than the load's `ImageLimits` allow.
    case unsupported(detail: String)

    public var category: AssetError.Category {
        switch self {
        case .malformed: .corrupt
        case .truncated: .truncated
        case .notPNG, .unsupported: .unsupported
        }
    }

    public var description: String {
        switch self {
        case .notPNG(let detail): "not a PNG file: \(detail)"
        case .malformed(let detail): "malformed APNG: \(detail)"
        case .truncated(let detail): "truncated APNG: \(detail)"
        case .unsupported(let detail): "unsupported APNG: \(detail)"
        }
    }
}
