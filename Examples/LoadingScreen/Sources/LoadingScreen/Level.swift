import Foundation
import Preload
import PreloadAtlas
import SceneLayout

/// The level the example streams in, and where its scene draws each sprite.
enum Level {
    /// The requests, named as the scene looks them up. The sprite folder is packed without
    /// turning sprites; the TexturePacker atlas keeps its own turned frame.
    static func requests(assets: String) -> [AssetRequest] {
        var creatures = AssetRequest(path: "\(assets)/atlases/creatures.atlas", name: "creatures")
        creatures.options[AtlasPackingOptions.self] = AtlasPackingOptions(allowsRotation: false)
        return [
            AssetRequest(path: "\(assets)/backgrounds/forest.png", name: "background"),
            creatures,
            AssetRequest(path: "\(assets)/atlases/ui/ui.json", name: "ui"),
            AssetRequest(path: "\(assets)/packs/level1.pak", name: "level1"),
        ]
    }

    static let panel = (x: 40, y: 40, width: 420, height: 120)

    /// Draws the loaded level: the background, an opaque black panel, and on it three sprites
    /// from the packed sprite folder, two frames of the TexturePacker atlas (one stored turned)
    /// and a texture from the pack. Returns where it drew what.
    static func draw(on gpu: GPU, store: AssetStore, assets: String) -> SceneLayout {
        let background = gpu.textures[store.handle(named: "background", as: Int.self)!]
        gpu.draw(background, x: 0, y: 0)
        gpu.fill(x: panel.x, y: panel.y, width: panel.width, height: panel.height, red: 0, green: 0, blue: 0)
        var sprites: [SceneLayout.Sprite] = []
        var x = panel.x + 10
        let creatures = gpu.atlases[store.handle(named: "creatures", as: Int.self)!]
        for name in ["hero", "slime", "bat"] {
            let frame = creatures.frames["\(name).png"]!
            gpu.draw(frame, of: creatures, x: x, y: panel.y + 10)
            sprites.append(
                SceneLayout.Sprite(
                    name: "creatures/\(name)", x: x, y: panel.y + 10, width: frame.sourceWidth, height: frame.sourceHeight,
                    file: "\(assets)/atlases/creatures.atlas/\(name).png"))
            x += frame.sourceWidth + 12
        }
        let ui = gpu.atlases[store.handle(named: "ui", as: Int.self)!]
        for name in ["button.png", "health_bar.png"] {
            let frame = ui.frames[name]!
            gpu.draw(frame, of: ui, x: x, y: panel.y + 10)
            sprites.append(
                SceneLayout.Sprite(
                    name: "ui/\(name)", x: x, y: panel.y + 10, width: frame.sourceWidth, height: frame.sourceHeight,
                    atlas: "\(assets)/atlases/ui/ui.json", frame: name))
            x += frame.sourceWidth + 12
        }
        let pack = gpu.packs[store.handle(named: "level1", as: Int.self)!]
        let bat = pack.textures["sprites/bat.png"]!
        gpu.draw(bat, x: x, y: panel.y + 10)
        sprites.append(
            SceneLayout.Sprite(
                name: "level1#sprites/bat.png", x: x, y: panel.y + 10, width: 28, height: 28, pack: "\(assets)/packs/level1.pak",
                entry: "sprites/bat.png"))
        return SceneLayout(
            panel: [panel.x, panel.y, panel.width, panel.height], background: "\(assets)/backgrounds/forest.png",
            backgroundPatch: [700, 400, 500, 300], sprites: sprites)
    }
}
