import Foundation
import PreloadAtlas

/// An atlas entry's data in a baked pack: the atlas in the normalized model, as JSON, its pages
/// referring to other entries of the pack by position. An atlas has tens to thousands of frames,
/// read once per load: JSON keeps the format open to other tools at no measurable cost.
///
/// ```json
/// {"format":"libgdx","scale":1,"pages":[{"entry":3,"path":"creatures.png"}],
///  "frames":[{"name":"bat","page":0,"x":2,"y":2,"w":16,"h":16,"rotation":"none",
///             "offsetX":0,"offsetY":0,"sourceW":16,"sourceH":16}]}
/// ```
public struct BakedAtlasTable: Codable, Sendable, Equatable {
    /// A page: the entry holding its texture, and the page's path as the atlas named it.
    public struct Page: Codable, Sendable, Equatable {
        public var entry: Int
        public var path: String
    }

    /// A frame, field for field `AtlasFrame`.
    public struct Frame: Codable, Sendable, Equatable {
        public var name: String
        public var page: Int
        public var x: Int
        public var y: Int
        public var w: Int
        public var h: Int
        public var rotation: String
        public var offsetX: Int
        public var offsetY: Int
        public var sourceW: Int
        public var sourceH: Int
        public var pivot: [Double]?
        public var index: Int?
        public var nineSlice: [Int]?
        public var padding: [Int]?
    }

    /// `TextureAtlas.Format`'s raw value.
    public var format: String
    public var scale: Double
    public var pages: [Page]
    public var frames: [Frame]

    /// The table for `atlas`, its pages in the entries `pageEntries` (in page order).
    public init(_ atlas: TextureAtlas, pageEntries: [Int]) {
        format = atlas.format.rawValue
        scale = atlas.scale
        pages = zip(atlas.pages, pageEntries).map { Page(entry: $1, path: $0.path) }
        frames = atlas.frames.map { frame in
            Frame(
                name: frame.name, page: frame.page, x: frame.rect.x, y: frame.rect.y, w: frame.rect.width, h: frame.rect.height,
                rotation: frame.rotation.rawValue, offsetX: frame.offsetX, offsetY: frame.offsetY, sourceW: frame.sourceWidth,
                sourceH: frame.sourceHeight, pivot: frame.pivot.map { [$0.x, $0.y] }, index: frame.index,
                nineSlice: frame.nineSlice.map { [$0.left, $0.right, $0.top, $0.bottom] }, padding: frame.nineSlice?.padding)
        }
    }

    /// The atlas this table describes, with `pages` (the page textures, in page order); throws
    /// why the table cannot be one (a frame on a page that does not exist, ...).
    public func atlas(pages textures: [AtlasPage]) throws(BakedPackError) -> TextureAtlas {
        guard let format = TextureAtlas.Format(rawValue: format) else { throw .malformed("unknown atlas format '\(self.format)'") }
        var frames: [AtlasFrame] = []
        frames.reserveCapacity(self.frames.count)
        for frame in self.frames {
            guard let rotation = AtlasFrame.Rotation(rawValue: frame.rotation) else {
                throw .malformed("atlas frame '\(frame.name)' has an unknown rotation '\(frame.rotation)'")
            }
            guard textures.indices.contains(frame.page) else {
                throw .malformed("atlas frame '\(frame.name)' is on page index \(frame.page), and the atlas has \(textures.count) pages")
            }
            let rect = PixelRect(x: frame.x, y: frame.y, width: frame.w, height: frame.h)
            let page = textures[frame.page].texture
            guard frame.w >= 0, frame.h >= 0, rect.isInside(width: page.width, height: page.height) else {
                throw .malformed("atlas frame '\(frame.name)' lies outside its page")
            }
            let nineSlice = frame.nineSlice.flatMap {
                $0.count == 4 ? NineSlice(left: $0[0], right: $0[1], top: $0[2], bottom: $0[3], padding: frame.padding) : nil
            }
            frames.append(
                AtlasFrame(
                    name: frame.name, page: frame.page, rect: rect, rotation: rotation, offsetX: frame.offsetX, offsetY: frame.offsetY,
                    sourceWidth: frame.sourceW, sourceHeight: frame.sourceH,
                    pivot: frame.pivot.flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil }, index: frame.index, nineSlice: nineSlice))
        }
        return TextureAtlas(format: format, pages: textures, frames: frames, scale: scale)
    }
}
