import Preload

/// Why an atlas did not load or check, naming the frame when there is one. `file` is the
/// descriptor the problem is in; the description leaves it out (the coordinator's `AssetError`
/// puts the atlas's path in front) and names another file only when the problem is in one.
public enum AtlasError: AssetFailure, Equatable {
    /// The descriptor cannot be read as its format (bad JSON, missing field, wrong type, ...).
    case malformed(file: String, detail: String)
    /// The file asked for as an atlas is not one in any dialect: JSON that is not an object
    /// with TexturePacker's `frames` or `textures` (`{` alone, `[1,2]`, a level's data), or
    /// binary data (a PNG asked for as an atlas).
    case notAnAtlas(file: String, detail: String)
    /// A frame's rectangle reaches outside its page.
    case frameOutsidePage(file: String, frame: String, rect: PixelRect, page: String, pageWidth: Int, pageHeight: Int)
    /// A frame refers to a page the descriptor does not have.
    case unknownPage(file: String, frame: String, page: String)
    /// A page image is missing or failed to load.
    case pageFailed(file: String, page: String, cause: String)
    /// Two frames on one page partly overlap (frames sharing one rectangle exactly are aliases
    /// of one image, which packers make on purpose, and are fine).
    case framesOverlap(file: String, first: String, second: String)
    /// The atlas uses something this loader does not support (an angle other than 90°, ...).
    case unsupported(file: String, detail: String)
    /// A sprite does not fit on a page of the largest allowed size.
    case spriteTooLarge(file: String, sprite: String, width: Int, height: Int, pageLimit: Int)

    public var category: AssetError.Category {
        switch self {
        case .malformed, .frameOutsidePage, .unknownPage, .framesOverlap: .corrupt
        case .pageFailed: .dependencyFailed
        case .unsupported, .notAnAtlas: .unsupported
        case .spriteTooLarge: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .malformed(_, let detail):
            "malformed atlas: \(detail)"
        case .frameOutsidePage(_, let frame, let rect, let page, let width, let height):
            "frame '\(frame)' at \(rect) lies outside page \(AssetPath.fileName(of: page)) (\(width)x\(height))"
        case .unknownPage(_, let frame, let page):
            "frame '\(frame)' refers to page '\(page)', which the atlas does not have"
        case .pageFailed(_, let page, let cause):
            "page \(AssetPath.fileName(of: page)) failed: \(cause)"
        case .framesOverlap(_, let first, let second):
            "frames '\(first)' and '\(second)' overlap"
        case .unsupported(_, let detail):
            "unsupported atlas feature: \(detail)"
        case .notAnAtlas(_, let detail):
            "not an atlas: \(detail)"
        case .spriteTooLarge(_, let sprite, let width, let height, let limit):
            "sprite '\(sprite)' (\(width)x\(height)) does not fit a \(limit)x\(limit) page"
        }
    }
}
