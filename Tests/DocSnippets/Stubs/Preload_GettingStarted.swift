// What GettingStarted.md's snippets leave to the reader's game (see .ci/doc-snippets). Not Preload API.
import Preload

/// The game's loading bar, drawn on the main actor.
@MainActor final class ProgressBar {
    var value = 0.0
}
/// The game's requests for a level.
let requests: [AssetRequest] = []
/// The game's own start of a level, given what loaded.
func startLevel(_ report: PreloadReport) {}
