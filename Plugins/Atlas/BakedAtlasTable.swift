import Preload

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
        /// The position in the pack's index of the entry holding the page's texture.
        public var entry: Int
        /// The page's path as the atlas named it (`AtlasPage.path`).
        public var path: String
    }

    /// A frame, field for field `AtlasFrame`.
    public struct Frame: Codable, Sendable, Equatable {
        /// The frame's name.
        public var name: String
        /// Its page, by position in ``BakedAtlasTable/pages``.
        public var page: Int
        /// The rectangle it occupies in the page (the turned one for a turned frame): left edge.
        public var x: Int
        /// Top edge of the rectangle in the page.
        public var y: Int
        /// Width of the rectangle in the page.
        public var w: Int
        /// Height of the rectangle in the page.
        public var h: Int
        /// `AtlasFrame.Rotation`'s raw value: `none`, `clockwise`, `counterClockwise`, `upsideDown`.
        public var rotation: String
        /// Where the trimmed content sits in the original image: left.
        public var offsetX: Int
        /// Where the trimmed content sits in the original image: top.
        public var offsetY: Int
        /// The original, untrimmed width.
        public var sourceW: Int
        /// The original, untrimmed height.
        public var sourceH: Int
        /// The pivot `[x, y]`, normalized, y down, when given.
        public var pivot: [Double]?
        /// The animation index (libGDX), when given.
        public var index: Int?
        /// Nine-slice borders `[left, right, top, bottom]`, when given.
        public var nineSlice: [Int]?
        /// Nine-slice content padding, when given.
        public var padding: [Int]?
    }

    /// `TextureAtlas.Format`'s raw value.
    public var format: String
    /// Pixels per point (`TextureAtlas.scale`).
    public var scale: Double
    /// The pages, in the order frames refer to them.
    public var pages: [Page]
    /// The frames, in the atlas's order.
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
    /// `malformed` of why the table cannot be one (a frame on a page that does not exist, ...).
    public func atlas(pages textures: [AtlasPage], malformed: (String) -> any Error) throws -> TextureAtlas {
        guard let format = TextureAtlas.Format(rawValue: format) else { throw malformed("unknown atlas format '\(self.format)'") }
        var frames: [AtlasFrame] = []
        frames.reserveCapacity(self.frames.count)
        for frame in self.frames {
            guard let rotation = AtlasFrame.Rotation(rawValue: frame.rotation) else {
                throw malformed("atlas frame '\(frame.name)' has an unknown rotation '\(frame.rotation)'")
            }
            guard textures.indices.contains(frame.page) else {
                throw malformed("atlas frame '\(frame.name)' is on page index \(frame.page), and the atlas has \(textures.count) pages")
            }
            let rect = PixelRect(x: frame.x, y: frame.y, width: frame.w, height: frame.h)
            let page = textures[frame.page].texture
            guard frame.w >= 0, frame.h >= 0, rect.isInside(width: page.width, height: page.height) else {
                throw malformed("atlas frame '\(frame.name)' lies outside its page")
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
