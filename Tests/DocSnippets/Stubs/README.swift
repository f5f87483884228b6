// What README.md's snippets leave to the reader's game (see .ci/doc-snippets). Not Preload API.
import Preload

/// The game's renderer, which the hot-reload snippet gives a reloaded texture.
final class Renderer: Sendable {
    func replace(_ name: String, with texture: Texture) {}
}
let renderer = Renderer()
