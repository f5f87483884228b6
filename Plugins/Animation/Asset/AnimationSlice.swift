import PreloadAtlas

/// A named rectangle of an animation's canvas, as Aseprite's slices mark them: a hit box, a
/// button's 9-slice, a point to hold a weapon. It may move or change from frame to frame: each
/// key holds from its frame until the next key.
public struct AnimationSlice: Hashable, Sendable {
    /// A point of the canvas, in pixels.
    public struct Point: Hashable, Sendable {
        /// Pixels from the left.
        public var x: Int
        /// Pixels from the top.
        public var y: Int

        /// The point (`x`, `y`).
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// The slice from ``frame`` on (until the next key).
    public struct Key: Hashable, Sendable {
        /// The first frame the key holds for (an index into ``SpriteAnimation/frames``).
        public var frame: Int
        /// The slice on the canvas (it may reach outside it); empty (0 wide or high) when the
        /// slice is hidden from ``frame`` on.
        public var bounds: PixelRect
        /// A 9-slice's centre, relative to ``bounds``' top-left corner: the part that stretches.
        /// `nil` when the slice is not a 9-slice.
        public var center: PixelRect?
        /// The pivot, relative to ``bounds``' top-left corner; `nil` when the slice has none.
        public var pivot: Point?

        /// A key holding `bounds` from `frame` on.
        public init(frame: Int, bounds: PixelRect, center: PixelRect? = nil, pivot: Point? = nil) {
            self.frame = frame
            self.bounds = bounds
            self.center = center
            self.pivot = pivot
        }

        /// Whether the slice is hidden while this key holds (its bounds are empty).
        public var isHidden: Bool { bounds.width <= 0 || bounds.height <= 0 }
    }

    /// The slice's name (`hitbox`); names need not be unique, the first one wins a lookup.
    public var name: String
    /// The keys, by ascending frame.
    public var keys: [Key]
    /// The slice's user data (Aseprite draws a slice in its colour).
    public var userData: AnimationUserData

    /// A slice named `name` with `keys` (sorted here by their frames).
    public init(name: String, keys: [Key], userData: AnimationUserData = AnimationUserData()) {
        self.name = name
        self.keys = keys.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        self.userData = userData
    }

    /// The key in force at frame `index`: the last key whose frame is at most `index`.
    /// - Returns: `nil` before the first key, and while the key in force hides the slice
    ///   (``Key/isHidden``).
    public func key(atFrame index: Int) -> Key? {
        guard let key = keys.last(where: { $0.frame <= index }), !key.isHidden else { return nil }
        return key
    }
}
