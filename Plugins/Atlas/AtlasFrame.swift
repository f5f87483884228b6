import Preload

/// A rectangle of pixels, top-left origin, y down.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, in pixels from the page's left.
    public var x: Int
    /// Top edge, in pixels from the page's top.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right and bottom edges (exclusive), saturating at `Int`'s range: a hostile descriptor
    /// may give any numbers.
    public var maxX: Int { Self.saturatingSum(x, width) }
    /// The bottom edge (`y + height`, saturating).
    public var maxY: Int { Self.saturatingSum(y, height) }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// Whether the rectangle lies inside a `width` x `height` image. (Compared without adding,
    /// so numbers from a hostile descriptor cannot overflow.)
    public func isInside(width: Int, height: Int) -> Bool {
        x >= 0 && y >= 0 && self.width >= 0 && self.height >= 0 && width >= 0 && height >= 0
            && x <= width - self.width && y <= height - self.height
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}

/// Nine-slice (9-patch) borders: how far in from each edge the stretchable middle begins.
public struct NineSlice: Hashable, Sendable {
    /// Pixels from the left edge to the stretchable middle.
    public var left: Int
    /// Pixels from the right edge to the stretchable middle.
    public var right: Int
    /// Pixels from the top edge to the stretchable middle.
    public var top: Int
    /// Pixels from the bottom edge to the stretchable middle.
    public var bottom: Int
    /// Content padding, when the format gives one (libGDX `pad`).
    public var padding: [Int]?

    /// Nine-slice borders, with optional content padding (left, right, top, bottom).
    public init(left: Int, right: Int, top: Int, bottom: Int, padding: [Int]? = nil) {
        self.left = left
        self.right = right
        self.top = top
        self.bottom = bottom
        self.padding = padding
    }
}

/// One named image in an atlas, in a single normalized model whatever the dialect it came from.
public struct AtlasFrame: Hashable, Sendable {
    /// How the frame's pixels are stored in the page.
    public enum Rotation: String, Hashable, Sendable {
        case none
        /// Stored turned 90° clockwise (TexturePacker, SpriteKit).
        case clockwise
        /// Stored turned 90° counter-clockwise (libGDX).
        case counterClockwise
        /// Stored turned 180° (Spine's `rotate: 180`).
        case upsideDown

        /// Whether the frame lies on its side in the page (its rectangle's width is the
        /// content's height).
        public var swapsSides: Bool { self == .clockwise || self == .counterClockwise }
    }

    /// The frame's name as the descriptor gives it (often with an extension, `hero.png`).
    public let name: String
    /// Index into ``TextureAtlas/pages``.
    public let page: Int
    /// The rectangle the frame occupies in the page image, top-left origin; for a rotated frame
    /// this is the rotated rectangle.
    public let rect: PixelRect
    /// How the frame's pixels are turned on the page.
    public let rotation: Rotation
    /// Where the trimmed content sits inside the original image, top-left origin (can be negative
    /// for TexturePacker's "crop, keep position" mode).
    public let offsetX: Int
    /// Vertical trim offset: where the trimmed content's top sits in the original sprite.
    public let offsetY: Int
    /// The original, untrimmed size.
    public let sourceWidth: Int
    /// The sprite's height before trimming.
    public let sourceHeight: Int
    /// Pivot (anchor), normalized to the original image, y down; `nil` when not given.
    public let pivot: SIMD2<Double>?
    /// Animation frame index (libGDX), when given.
    public let index: Int?
    /// Nine-slice borders, when given.
    public let nineSlice: NineSlice?

    /// A frame in the normalized model (what every atlas dialect is read into).
    public init(
        name: String, page: Int, rect: PixelRect, rotation: Rotation, offsetX: Int, offsetY: Int,
        sourceWidth: Int, sourceHeight: Int, pivot: SIMD2<Double>? = nil, index: Int? = nil, nineSlice: NineSlice? = nil
    ) {
        self.name = name
        self.page = page
        self.rect = rect
        self.rotation = rotation
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.pivot = pivot
        self.index = index
        self.nineSlice = nineSlice
    }

    /// The largest original width or height, and trim offset either way, a frame may declare
    /// (PNG's default decoding limit): a frame image is allocated at the original size.
    package static let maxOriginalSide = 32768

    /// Why the frame's original size or trim offset cannot be right, if it cannot.
    package var sizeProblem: String? {
        let limit = Self.maxOriginalSide
        guard (0...limit).contains(sourceWidth), (0...limit).contains(sourceHeight) else {
            return "frame '\(name)' declares an original size of \(sourceWidth)x\(sourceHeight) (at most \(limit)x\(limit))"
        }
        guard (-limit...limit).contains(offsetX), (-limit...limit).contains(offsetY) else {
            return "frame '\(name)' declares a trim offset of (\(offsetX), \(offsetY)) (at most \(limit) either way)"
        }
        return nil
    }

    /// Whether the frame is stored turned on its page.
    public var isRotated: Bool { rotation != .none }
    /// The trimmed content's size, upright.
    public var contentWidth: Int { rotation.swapsSides ? rect.height : rect.width }
    /// The trimmed content's height, upright.
    public var contentHeight: Int { rotation.swapsSides ? rect.width : rect.height }
    /// Whether transparent borders were cut off.
    public var isTrimmed: Bool {
        offsetX != 0 || offsetY != 0 || contentWidth != sourceWidth || contentHeight != sourceHeight
    }

    /// The page coordinates of content pixel (`x`, `y`) of the upright, trimmed image.
    @inline(__always)
    func pagePoint(contentX x: Int, contentY y: Int) -> (x: Int, y: Int) {
        switch rotation {
        case .none: (rect.x + x, rect.y + y)
        case .clockwise: (rect.x + contentHeight - 1 - y, rect.y + x)
        case .counterClockwise: (rect.x + y, rect.y + contentWidth - 1 - x)
        case .upsideDown: (rect.x + contentWidth - 1 - x, rect.y + contentHeight - 1 - y)
        }
    }

    /// The frame's rectangle in normalized texture coordinates of a `pageWidth` x `pageHeight`
    /// page: `(u0, v0)` top-left, `(u1, v1)` bottom-right, v down.
    public func textureCoordinates(pageWidth: Int, pageHeight: Int) -> (u0: Double, v0: Double, u1: Double, v1: Double) {
        let width = Double(max(pageWidth, 1)), height = Double(max(pageHeight, 1))
        let x = Double(rect.x), y = Double(rect.y)
        return (x / width, y / height, (x + Double(rect.width)) / width, (y + Double(rect.height)) / height)
    }
}
