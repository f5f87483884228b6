import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadPNG
import PreloadPack
import PreloadTileMap

let coordinator = try PreloadCoordinator(plugins: [
    PNGLoader(), AtlasLoader(), PackLoader(), AudioLoader(), BitmapFontLoader(), TileMapLoader(),
])
do {
    let report = try await coordinator.preload(
        [.folder("sample-assets", name: "assets")],
        hooks: .onMainActor(onProgress: { print("loading: \(Int($0.fractionCompleted * 100))%") }))
    print("\(report.loaded.count) loaded, \(report.failed.count) failed, \(report.skippedPaths.count) skipped")
    for failure in report.failed { print(failure.outcome.error!) }
} catch let cancelled as PreloadCancelled {
    print("cancelled with \(cancelled.report.loaded.count) loaded")
}
let hero = coordinator.assets.texture(named: "assets/sprites/hero.png")!
let creatures = coordinator.assets.asset(named: "assets/atlases/creatures.atlas", as: TextureAtlas.self)!
let bat = creatures.frame(named: "bat.png")!
let hud = coordinator.assets.texture(named: "assets/packs/level1.pak#hud/hud.png")!
print("hero \(hero.width)x\(hero.height), bat at \(bat.rect), hud \(hud.width)x\(hud.height)")
let jump = coordinator.assets.asset(named: "assets/audio/jump.wav", as: Sound.self)!
let theme = coordinator.assets.asset(named: "assets/audio/theme.wav", as: Music.self)!
print("jump: \(jump.frameCount) frames of \(jump.format); theme: \(theme.duration) s, streamed from \(theme.byteCount) bytes")
let font = coordinator.assets.asset(named: "assets/fonts/pixel.fnt", as: BitmapFont.self)!
let title = font.layOut("LEVEL 1")
print("'LEVEL 1' in \(font.metrics.face): \(title.glyphs.count) glyphs, \(title.width)x\(title.height) pixels")
let level = coordinator.assets.asset(named: "assets/maps/level1.tmx", as: TileMap.self)!
let ground = level.layer(named: "ground")!.tiles!.tile(column: 0, row: 0)
print("level1: \(level.width)x\(level.height) tiles of \(level.tileWidth) px; its first tile at \(level.tile(for: ground)!.rect)")
