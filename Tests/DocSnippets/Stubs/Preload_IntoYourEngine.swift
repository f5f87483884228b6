// What IntoYourEngine.md's snippets leave to the reader's game (see .ci/doc-snippets). Not Preload API.
import Preload
import PreloadAtlas

/// The game's requests for a level.
let level: [AssetRequest] = []
/// The game's loading bar, drawn by its game loop.
@MainActor final class ProgressBar {
    var value = 0.0
}
@MainActor let bar = ProgressBar()
/// The engine's texture on the GPU: the handle an upload returns.
struct GPUTexture: Sendable {
    init(uploading texture: Texture) {}
}
/// The game's own start of a level, given what loaded.
func enterLevel(_ report: PreloadReport) {}
/// The engine's textures and atlases on the GPU, by name.
final class GPU: Sendable {
    func replace(_ name: String, with texture: Texture) {}
    func replace(_ name: String, with atlas: TextureAtlas) {}
}
let gpu = GPU()
/// The game's log.
struct Log: Sendable {
    func warning(_ message: String) {}
}
let log = Log()
