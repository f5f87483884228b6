/// Where a tile lies in its image: a rectangle of pixels, top-left origin, y down, as a corner
/// and a size (what a renderer turns into texture coordinates with ``textureCoordinates(imageWidth:imageHeight:)``).
public struct TileRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The top-left corner, in pixels from the image's top-left.
    public var origin: SIMD2<Int>
    /// The width and height, in pixels.
    public var size: SIMD2<Int>

    /// A rectangle of `size` pixels whose top-left corner is `origin`.
    public init(origin: SIMD2<Int>, size: SIMD2<Int>) {
        (self.origin, self.size) = (origin, size)
    }

    /// A rectangle of `width` x `height` pixels whose top-left corner is (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: SIMD2(x, y), size: SIMD2(width, height))
    }

    /// The left edge (`origin.x`).
    public var x: Int { origin.x }
    /// The top edge (`origin.y`).
    public var y: Int { origin.y }
    /// The width (`size.x`).
    public var width: Int { size.x }
    /// The height (`size.y`).
    public var height: Int { size.y }

    /// Whether it lies inside an image of `width` x `height` pixels (compared without adding, so
    /// no number a file gives can overflow).
    public func isInside(width: Int, height: Int) -> Bool {
        let room = SIMD2(width, height) &- size
        return all(origin .>= 0) && all(size .>= 0) && all(origin .<= room) && all(SIMD2(width, height) .>= size)
    }

    /// The rectangle in texture coordinates of an image of `imageWidth` x `imageHeight` pixels:
    /// its corners as fractions of the image's sides, (0, 0) top-left.
    public func textureCoordinates(imageWidth: Int, imageHeight: Int) -> (u0: Double, v0: Double, u1: Double, v1: Double) {
        let image = SIMD2<Double>(Double(max(imageWidth, 1)), Double(max(imageHeight, 1)))
        let start = SIMD2<Double>(origin) / image, end = SIMD2<Double>(origin &+ size) / image
        return (start.x, start.y, end.x, end.y)
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
