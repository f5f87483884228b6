// game-boot: a simulated game start-up built from Preload's four flow tools.
//
//   swift run game-boot [ASSETS_DIR]        (default: sample-assets)
//
// - A Sequencer holds the start-up's dependencies in one place: log in and download user data
//   (simulated, finishing in a different order each run), parse once both are in, start the game
//   once the data is parsed and the textures are loaded.
// - A StateMachine keeps the game's modes; its LoadingState loads the textures through the real
//   preloader, drawing a loading bar, and processes each texture in request order whatever order
//   the decodes finish in.
// - A StageChain runs what follows the start as flat stages: level data from a pack, then the
//   intro, with one progress bar across both.
import Dispatch
import Foundation
import Preload
import PreloadFlow
import PreloadAtlas
import PreloadPNG
import PreloadPack

let assets = CommandLine.arguments.dropFirst().first ?? "sample-assets"
let began = ContinuousClock.now

/// Prints `message` with the time since start-up began.
func say(_ message: String) {
    let milliseconds =
        (ContinuousClock.now - began).components.attoseconds / 1_000_000_000_000_000
        + (ContinuousClock.now - began).components.seconds * 1000
    print(String(format: "[%5lld ms] %@", milliseconds, message))
}

/// A network call, simulated: finishes after a random delay, on some other thread.
func simulate(_ what: String, then done: @escaping @Sendable () -> Void) {
    let delay = Int.random(in: 50...400)
    say("\(what): started (will take \(delay) ms)")
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
        say("\(what): done")
        done()
    }
}

enum Step: String, Hashable, Sendable { case login, userData, parsed, textures }
enum Input { case tap, quit }

/// A plain mode (the machine announces every change).
final class Mode: GameState<Input> {}

let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
let steps = Sequencer<Step>()
let machine = StateMachine<Input>()
machine.onChange = { change in
    if case .activated(let state) = change { say("state: \(state)") }
}

// 1. The dependency graph, declared in one place.
steps.add(dependencies: [.login, .userData], label: "parse user data") {
    say("parse user data: both login and download are in, parsing")
    usleep(30_000)
    steps.resolve(.parsed)
}
simulate("log in") { steps.resolve(.login) }
simulate("download user data") { steps.resolve(.userData) }

// 2. The texture loading screen: a LoadingState in the state machine, processing in request order.
let textureFolders = ["sprites", "tiles", "masks", "backgrounds"].map { assets + "/" + $0 }
let textures =
    textureFolders.flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
            .map { AssetRequest(path: folder + "/" + $0) }
    } + [AssetRequest(path: assets + "/atlases/ui/ui.json"), AssetRequest(path: assets + "/atlases/creatures.atlas")]

let loading = LoadingState<Input>(
    name: "loading textures", coordinator: coordinator, requests: textures,
    options: PreloadOptions(assetEventOrder: .request),
    hooks: PreloadHooks(onAssetLoaded: { say("  processed \($0.request.path.dropFirst(assets.count + 1)) (in request order)") }),
    next: { Mode(name: "waiting for user data") },
    failure: { failure in Mode(name: "error screen: \(failure)") },
    onProgress: { progress in
        let filled = Int(progress.fractionCompleted * 20)
        say(
            "loading [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
                + "] \(progress.finishedAssets)/\(progress.totalAssets)")
    })
machine.set(loading)
steps.resolve(.textures, whenFinished: loading.batch!)

// The game starts when everything it needs is in, whichever finished last.
try await steps.waitUntilResolved([.textures])
if !steps.isResolved(.parsed) {
    let pending = steps.pending.map { "'\($0.label)' waiting for \($0.waitingFor.map(\.rawValue).joined(separator: " and "))" }
    say("textures are in; still pending: " + pending.joined(separator: ", "))
}
try await steps.waitUntilResolved([.parsed, .textures])
machine.set(Mode(name: "title screen"))
say("game started: \(coordinator.assets.count) assets in memory")

// 3. What follows, as flat stages with one progress bar.
let boot = StageChain(
    coordinator: coordinator,
    [
        .preload("level data", weight: 2, [AssetRequest(path: assets + "/packs/level1.pak")]),
        .step("intro") { context in
            for frame in 1...4 {
                try await Task.sleep(for: .milliseconds(40))
                context.reportProgress(Double(frame) / 4)
            }
            return .next
        },
    ])
let report = try await boot.run(
    onProgress: { say("  next level: \(Int($0 * 100))%") },
    onEvent: { if case .started(let stage) = $0 { say("stage: \(stage)") } })
let level = report.reports["level data"]?.results.first?.outcome.asset as? PackAsset
say("level 1 ready: \(level?.entries.count ?? 0) entries from its pack; start-up took \(report.stages.count) stages after the title")
machine.set(Mode(name: "level 1"))
