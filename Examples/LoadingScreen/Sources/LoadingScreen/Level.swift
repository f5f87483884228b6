import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadPNG
import PreloadPack
import PreloadTileMap
import SceneLayout

/// The level the example streams in, and where its scene draws each sprite, the map and the text.
enum Level {
    /// The plugins that load the level's files (the game adds the baked-pack plugin, which loads
    /// the level baked).
    static var plugins: [any LoaderPlugin] {
        [PNGLoader(), AtlasLoader(), PackLoader(), AudioLoader(), BitmapFontLoader(), TileMapLoader(), AsepriteLoader()]
    }

    /// The requests, named as the scene looks them up. The sprite folder is packed without
    /// turning sprites; the TexturePacker atlas keeps its own turned frame. The jump sound is
    /// decoded now and the theme kept encoded, to stream when it plays. The Tiled map brings its
    /// tileset's image, the bitmap font its page. The hero's walk is an Aseprite file, composited
    /// and packed into pages at load.
    static func requests(assets: String) -> [AssetRequest] {
        var creatures = AssetRequest(path: "\(assets)/atlases/creatures.atlas", name: "creatures")
        creatures.options[AtlasLoaderSettings.self] = AtlasLoaderSettings(allowsRotation: false)
        var jump = AssetRequest(path: "\(assets)/audio/jump.wav", name: "jump")
        jump.options[AudioLoaderSettings.self] = AudioLoaderSettings(kind: .sound)
        var theme = AssetRequest(path: "\(assets)/audio/theme.wav", name: "theme")
        theme.options[AudioLoaderSettings.self] = AudioLoaderSettings(kind: .music)
        return [
            AssetRequest(path: "\(assets)/backgrounds/forest.png", name: "background"),
            creatures,
            AssetRequest(path: "\(assets)/atlases/ui/ui.json", name: "ui"),
            AssetRequest(path: "\(assets)/packs/level1.pak", name: "level1"),
            jump, theme,
            AssetRequest(path: "\(assets)/maps/level1.tmx", name: "map"),
            AssetRequest(path: "\(assets)/fonts/pixel.fnt", name: "font"),
            AssetRequest(path: "\(assets)/animations/hero-walk.aseprite", name: "hero-walk"),
        ]
    }

    static let panel = (x: 40, y: 40, width: 520, height: 120)
    /// Where the hero's walk (64x70) plays: at the panel's right end, right of the sprites and
    /// above the text's line.
    static let animationOrigin = (x: panel.x + panel.width - 74, y: panel.y + 4)
    /// Where the map's top-left corner goes: below the panel, clear of the background's patch.
    static let mapOrigin = (x: 40, y: 200)
    /// The line of text on the panel, below the sprites; "LT" and "TA" are the font's kerning pairs.
    static let text = (string: "LEVEL 1 - TAKE THE VAULT", x: panel.x + 10, y: panel.y + 76)

    /// Draws the loaded level: the background, an opaque black panel, and on it three sprites
    /// from the packed sprite folder, two frames of the TexturePacker atlas (one stored turned),
    /// a texture from the pack and a line of text in the bitmap font; below the panel, the Tiled
    /// map's tile layers; at the panel's right end, the hero's walk as it is `animationTime` after
    /// it started. Returns where it drew what.
    static func draw(on gpu: GPU, store: AssetStore, assets: String, animationTime: Duration) -> SceneLayout {
        let background = gpu.textures[required(store.handle(named: "background", as: Int.self), "background (backgrounds/forest.png) on the GPU")]
        gpu.draw(background, x: 0, y: 0)
        gpu.fill(x: panel.x, y: panel.y, width: panel.width, height: panel.height, red: 0, green: 0, blue: 0)
        var sprites: [SceneLayout.Sprite] = []
        var x = panel.x + 10
        let creatures = gpu.atlases[required(store.handle(named: "creatures", as: Int.self), "creatures atlas (atlases/creatures.atlas) on the GPU")]
        for name in ["hero", "slime", "bat"] {
            let frame = required(creatures.frames["\(name).png"], "frame \(name).png in atlases/creatures.atlas")
            gpu.draw(frame, of: creatures, x: x, y: panel.y + 10)
            sprites.append(
                SceneLayout.Sprite(
                    name: "creatures/\(name)", x: x, y: panel.y + 10, width: frame.sourceWidth, height: frame.sourceHeight,
                    file: "\(assets)/atlases/creatures.atlas/\(name).png"))
            x += frame.sourceWidth + 12
        }
        let ui = gpu.atlases[required(store.handle(named: "ui", as: Int.self), "ui atlas (atlases/ui/ui.json) on the GPU")]
        for name in ["button.png", "health_bar.png"] {
            let frame = required(ui.frames[name], "frame \(name) in atlases/ui/ui.json")
            gpu.draw(frame, of: ui, x: x, y: panel.y + 10)
            sprites.append(
                SceneLayout.Sprite(
                    name: "ui/\(name)", x: x, y: panel.y + 10, width: frame.sourceWidth, height: frame.sourceHeight,
                    atlas: "\(assets)/atlases/ui/ui.json", frame: name))
            x += frame.sourceWidth + 12
        }
        // Loose, the pack is one asset; baked, a pack is baked as its entries, named `level1#ENTRY`.
        let bat: OpaquePointer
        if let texture = store.handle(named: "level1#sprites/bat.png", as: Int.self) {
            bat = gpu.textures[texture]
        } else {
            let pack = gpu.packs[required(store.handle(named: "level1", as: Int.self), "pack packs/level1.pak on the GPU")]
            bat = required(pack.textures["sprites/bat.png"], "entry sprites/bat.png in packs/level1.pak")
        }
        gpu.draw(bat, x: x, y: panel.y + 10)
        sprites.append(
            SceneLayout.Sprite(
                name: "level1#sprites/bat.png", x: x, y: panel.y + 10, width: 28, height: 28, pack: "\(assets)/packs/level1.pak",
                entry: "sprites/bat.png"))
        let font = gpu.fonts[required(store.handle(named: "font", as: Int.self), "font fonts/pixel.fnt on the GPU")]
        gpu.draw(font.glyphs.layOut(text.string), of: font, x: text.x, y: text.y)
        let map = gpu.maps[required(store.handle(named: "map", as: Int.self), "map maps/level1.tmx on the GPU")]
        gpu.draw(map, x: mapOrigin.x, y: mapOrigin.y)
        let walk = gpu.animations[
            required(store.handle(named: "hero-walk", as: Int.self), "animation hero-walk (animations/hero-walk.aseprite) on the GPU")]
        let shown = required(walk.timing.frameIndex(at: animationTime, tag: "walk"), "tag walk in animations/hero-walk.aseprite")
        gpu.draw(frame: shown, of: walk, x: animationOrigin.x, y: animationOrigin.y)
        return SceneLayout(
            panel: [panel.x, panel.y, panel.width, panel.height], background: "\(assets)/backgrounds/forest.png",
            backgroundPatch: [700, 400, 500, 300], sprites: sprites,
            map: SceneLayout.Map(
                file: "\(assets)/maps/level1.tmx", x: mapOrigin.x, y: mapOrigin.y, width: map.width, height: map.height),
            text: SceneLayout.Text(string: text.string, x: text.x, y: text.y, font: "\(assets)/fonts/pixel.fnt"),
            animation: SceneLayout.Animation(
                file: "\(assets)/animations/hero-walk.aseprite", tag: "walk", x: animationOrigin.x, y: animationOrigin.y,
                width: walk.timing.width, height: walk.timing.height, milliseconds: Int(animationTime / .milliseconds(1)), frame: shown))
    }
}

/// `value`, or the example stops with a message naming what the level lacks (a folder given with
/// `--assets` that is not shaped like `sample-assets`): never a trap.
func required<Value>(_ value: Value?, _ what: String) -> Value {
    guard let value else { Options.fail("the level has no \(what)", status: 1) }
    return value
}
