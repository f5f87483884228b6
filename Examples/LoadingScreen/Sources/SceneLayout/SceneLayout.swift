/// What `LoadingScreen` drew where, written beside its screenshot (`SHOT.png.layout.json`) and
/// read by `ScreenshotCheck`: one definition, so the two programs cannot disagree.
public struct SceneLayout: Codable, Sendable {
    /// One sprite drawn in the scene and where its pixels come from.
    public struct Sprite: Codable, Sendable {
        public var name: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        /// A PNG file; or an atlas descriptor and a frame in it; or a pack and an entry in it.
        public var file: String?
        public var atlas: String?
        public var frame: String?
        public var pack: String?
        public var entry: String?

        public init(
            name: String, x: Int, y: Int, width: Int, height: Int, file: String? = nil, atlas: String? = nil, frame: String? = nil,
            pack: String? = nil, entry: String? = nil
        ) {
            (self.name, self.x, self.y, self.width, self.height) = (name, x, y, width, height)
            (self.file, self.atlas, self.frame, self.pack, self.entry) = (file, atlas, frame, pack, entry)
        }
    }

    /// The Tiled map drawn (a TMX file): its top-left corner and its size in pixels.
    public struct Map: Codable, Sendable {
        public var file: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(file: String, x: Int, y: Int, width: Int, height: Int) {
            (self.file, self.x, self.y, self.width, self.height) = (file, x, y, width, height)
        }
    }

    /// A line of text drawn with a bitmap font (an AngelCode BMFont text file) on the panel: the
    /// line's top-left corner, where the pen starts.
    public struct Text: Codable, Sendable {
        public var string: String
        public var x: Int
        public var y: Int
        public var font: String

        public init(string: String, x: Int, y: Int, font: String) {
            (self.string, self.x, self.y, self.font) = (string, x, y, font)
        }
    }

    /// The animation drawn on the panel: which frame of which tag it showed, how long after the
    /// tag started, and where its canvas's top-left corner was.
    public struct Animation: Codable, Sendable {
        public var file: String
        public var tag: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var milliseconds: Int
        public var frame: Int

        public init(file: String, tag: String, x: Int, y: Int, width: Int, height: Int, milliseconds: Int, frame: Int) {
            (self.file, self.tag, self.x, self.y, self.width, self.height) = (file, tag, x, y, width, height)
            (self.milliseconds, self.frame) = (milliseconds, frame)
        }
    }

    /// The opaque black panel the sprites and the text are drawn on: x, y, width, height.
    public var panel: [Int]
    /// The background image, and a patch of it (x, y, width, height) that nothing covers.
    public var background: String
    public var backgroundPatch: [Int]
    public var sprites: [Sprite]
    public var map: Map
    public var text: Text
    public var animation: Animation

    public init(panel: [Int], background: String, backgroundPatch: [Int], sprites: [Sprite], map: Map, text: Text, animation: Animation) {
        (self.panel, self.background, self.backgroundPatch, self.sprites) = (panel, background, backgroundPatch, sprites)
        (self.map, self.text, self.animation) = (map, text, animation)
    }
}
