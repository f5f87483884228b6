import Preload

/// Why a GIF did not load, naming the frame or record at fault and giflib's words for it. The
/// description leaves out the file (the coordinator's `AssetError` puts its path in front).
public enum GIFError: AssetFailure, Equatable {
    /// The file is not a GIF (no `GIF87a` or `GIF89a` signature).
    case notGIF(detail: String)
    /// The file is damaged: a logical screen of no size, LZW data giflib cannot decode, a record
    /// of an unknown type before any frame, no frame at all.
    case malformed(detail: String)
    /// The file ends inside its header, a colour table, an extension or a frame's pixels.
    case truncated(detail: String)
    /// The file is larger than the loader's `ImageLimits`: a logical screen or a frame wider or
    /// taller than the limit, or frames whose pixels would pass the memory limit.
    case tooLarge(detail: String)

    public var category: AssetError.Category {
        switch self {
        case .malformed: .corrupt
        case .truncated: .truncated
        case .notGIF: .unsupported
        case .tooLarge: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .notGIF(let detail): "not a GIF: \(detail)"
        case .malformed(let detail): "malformed GIF: \(detail)"
        case .truncated(let detail): "truncated GIF: \(detail)"
        case .tooLarge(let detail): "GIF too large: \(detail)"
        }
    }
}
