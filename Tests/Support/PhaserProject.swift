import Foundation

/// A Phaser project on disk, laid out as Phaser Editor lays one out: the page at the web root,
/// the pack in `assets/`, URLs relative to the web root. Every image is distinct noise, so a
/// texture loaded from the wrong file shows.
public struct PhaserProject {
    /// The project's folder.
    public let directory: TemporaryDirectory
    /// The web root the pack's URLs are relative to.
    public var root: String { directory.path }
    /// The asset pack's path.
    public var pack: String { directory.file("assets/asset-pack.json") }

    /// The pack the tests read: two sections, every loadable type, and what is skipped.
    public static let packText = """
        {
          "boot": {
            "files": [
              { "type": "image", "key": "sky", "url": "assets/images/sky.png?v=3" },
              { "type": "json", "key": "items", "url": "assets/data/items.json" }
            ]
          },
          "level1": {
            "path": "assets/",
            "prefix": "l1.",
            "files": [
              { "type": "image", "key": "hero", "url": ["images/hero.png", "images/hero_n.png"] },
              { "type": "atlas", "key": "ui", "textureURL": "atlas/ui-sheet.png", "atlasURL": "atlas/ui.json" },
              { "type": "multiatlas", "key": "creatures", "url": "data/creatures.json", "path": "assets/atlas/" },
              { "type": "spritesheet", "key": "coin", "url": "sheets/coin.png",
                "frameConfig": { "frameWidth": 16, "frameHeight": 8, "margin": 1, "spacing": 2, "endFrame": 4 } },
              { "type": "binary", "key": "level", "url": "data/level.bin" },
              { "key": "tiles" },
              { "type": "audio", "key": "theme", "url": ["audio/theme.m4a", {"type": "wav", "url": "audio/theme.wav"}] },
              { "type": "audioSprite", "key": "sfx", "jsonURL": "audio/sfx.json", "audioURL": ["audio/sfx.wav"] },
              { "type": "bitmapFont", "key": "font", "textureURL": "fonts/f.png", "fontDataURL": "fonts/f.xml" },
              { "type": "image", "key": "banner", "url": "//cdn.example.com/banner.png" },
              { "type": "image", "key": "hero", "url": "images/sky.png" },
              { "type": "video", "key": "intro", "url": "video/intro.mp4" },
              { "type": "tilemapTiledJSON", "key": "map", "url": "maps/level.json" },
              { "type": "tilemapCSV", "key": "grid", "url": "maps/grid.csv" }
            ],
            "defaultType": "image"
          },
          "meta": { "app": "Phaser Editor 2D - Asset Pack Editor", "version": 2 }
        }
        """

    /// The UI atlas: its JSON names `ui.png`, which does not exist; the pack's `textureURL` wins.
    static let uiAtlas = """
        {"frames": {"button": {"frame": {"x": 0, "y": 0, "w": 20, "h": 10}, "rotated": false, "trimmed": false,
                               "spriteSourceSize": {"x": 0, "y": 0, "w": 20, "h": 10}, "sourceSize": {"w": 20, "h": 10}}},
         "meta": {"image": "ui.png", "size": {"w": 32, "h": 16}, "scale": "1"}}
        """

    /// A multiatlas in `assets/data/` whose pages live in `assets/atlas/` (the entry's `path`).
    static let creaturesAtlas = """
        {"textures": [
          {"image": "creatures-0.png", "size": {"w": 16, "h": 16},
           "frames": [{"filename": "bat", "frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "rotated": false}]},
          {"image": "creatures-1.png", "size": {"w": 16, "h": 16},
           "frames": [{"filename": "slime", "frame": {"x": 8, "y": 8, "w": 8, "h": 8}, "rotated": false}]}]}
        """

    /// A BMFont XML font (Phaser's `bitmapFont` form) whose one page is `f.png`, 16x16: its XML
    /// names `font.png`, which does not exist; the pack's `textureURL` wins.
    public static let fontXML = """
        <?xml version="1.0"?>
        <font>
          <info face="Pixel" size="8"/>
          <common lineHeight="9" base="7" scaleW="16" scaleH="16" pages="1"/>
          <pages><page id="0" file="font.png"/></pages>
          <chars count="2">
            <char id="65" x="0" y="0" width="5" height="7" xoffset="0" yoffset="1" xadvance="6" page="0" chnl="15"/>
            <char id="86" x="6" y="0" width="5" height="7" xoffset="0" yoffset="1" xadvance="6" page="0" chnl="15"/>
          </chars>
          <kernings count="1"><kerning first="65" second="86" amount="-1"/></kernings>
        </font>
        """

    /// A 2x2 Tiled map (Tiled's JSON) on `assets/tiles.png`, 8x8, cut into four 4x4 tiles.
    public static let tiledMap = """
        {"type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal", "renderorder": "right-down",
         "width": 2, "height": 2, "tilewidth": 4, "tileheight": 4, "infinite": false, "nextlayerid": 2, "nextobjectid": 1,
         "layers": [{"id": 1, "name": "ground", "type": "tilelayer", "width": 2, "height": 2, "x": 0, "y": 0, "opacity": 1,
                     "visible": true, "data": [1, 2, 3, 2147483652]}],
         "tilesets": [{"firstgid": 1, "name": "tiles", "image": "../tiles.png", "imagewidth": 8, "imageheight": 8,
                       "tilewidth": 4, "tileheight": 4, "tilecount": 4, "columns": 2, "margin": 0, "spacing": 0}]}
        """

    /// Writes the project into a new temporary folder.
    public init() throws {
        directory = try TemporaryDirectory("phaser-project")
        try directory.write("index.html", text: "<!doctype html><script src=\"main.js\"></script>\n")
        try directory.write("assets/asset-pack.json", text: Self.packText)
        let images: [(String, Int, Int)] = [
            ("assets/images/sky.png", 40, 20), ("assets/images/hero.png", 12, 12), ("assets/images/hero_n.png", 12, 12),
            ("assets/atlas/ui-sheet.png", 32, 16), ("assets/atlas/creatures-0.png", 16, 16), ("assets/atlas/creatures-1.png", 16, 16),
            ("assets/sheets/coin.png", 52, 30), ("assets/l1.tiles.png", 4, 4), ("assets/tiles.png", 8, 8), ("assets/fonts/f.png", 16, 16),
        ]
        for (index, (name, width, height)) in images.enumerated() {
            try directory.write(
                name, PNGFixture.rgba(width: width, height: height, pixels: PNGFixture.noise(width: width, height: height, seed: UInt64(index + 1))))
        }
        try directory.write("assets/atlas/ui.json", text: Self.uiAtlas)
        try directory.write("assets/data/creatures.json", text: Self.creaturesAtlas)
        try directory.write("assets/data/items.json", text: "{\"items\": [1, 2, 3]}\n")
        try directory.write("assets/fonts/f.xml", text: Self.fontXML)
        try directory.write("assets/maps/level.json", text: Self.tiledMap)
        try directory.write("assets/maps/grid.csv", text: "0,1\n2,-1\n")
        try directory.write("assets/data/level.bin", (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) })
        // Audio: no plugin decodes .m4a, so the theme's second URL is the one loaded.
        try directory.write("assets/audio/theme.wav", Self.wav(frames: 8000))
        try directory.write("assets/audio/sfx.wav", Self.wav(frames: 16000))
        try directory.write(
            "assets/audio/sfx.json",
            text: #"{"resources": ["sfx.wav"], "spritemap": {"jump": {"start": 0, "end": 0.5}, "coin": {"start": 1, "end": 1.75, "loop": true}}}"#)
    }

    /// A 16-bit mono WAV of `frames` frames at 8,000 Hz (a ramp, so each frame differs).
    public static func wav(frames: Int) -> [UInt8] {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
        let samples = (0..<frames).flatMap { le16(UInt16(truncatingIfNeeded: $0 * 3)) }
        let body =
            Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16) + Array("data".utf8)
            + le32(UInt32(samples.count)) + samples
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body
    }

    /// The full path of `name` inside the project.
    public func file(_ name: String) -> String { directory.file(name) }

    /// The bytes of the project's file `name`.
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: file(name)))) }
}
