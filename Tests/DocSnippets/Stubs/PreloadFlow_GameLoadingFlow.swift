// What GameLoadingFlow.md's snippets leave to the reader's game (see .ci/doc-snippets). Not Preload API.
import Preload

/// The game's start-up steps, the keys of its `Sequencer`.
enum Step: Hashable, Sendable {
    case login, userData, parsed, textures
}
/// The game's own work: parse what the server sent, start the game.
func parse() {}
func startGame() {}
/// The game's requests for its textures.
let textureRequests: [AssetRequest] = []
/// The game's intro, which reports its progress as it plays.
struct Intro: Sendable {
    func play(progress: @escaping @Sendable (Double) -> Void) async {}
}
let intro = Intro()
/// The game's loading bar, which any thread may update.
final class LoadingBar: Sendable {
    private let fraction = Locked(0.0)
    var value: Double {
        get { fraction.withLock { $0 } }
        set { fraction.withLock { $0 = newValue } }
    }
}
let loadingBar = LoadingBar()
