import CSDL2
import Foundation
import Preload
import PreloadAudio
import PreloadAuthoring
import PreloadBaked
import PreloadGPU
import SceneLayout
import Synchronization

// A loading screen on SDL2: the level streams in on Preload's workers, the bar follows the
// batch's progress (what is on the GPU: the batch counts each hand-over by its item's public
// `progressWeight`, the bar leaves out rows still being copied; a sound or a file of data is
// ready, "on the GPU", once handed over), and each frame spends about 2 ms on uploads (the
// hand-off, and large textures a band of rows at a time); the batch completes when the level is
// on the GPU. Then the level is drawn, and its audio starts: the jump sound once over the
// theme, streamed (LevelAudio; SDL_AUDIODRIVER=disk writes what the device played to
// SDL_DISKAUDIOFILE). With `--trace`, a line per loading frame: the fraction shown and the
// fraction on the GPU by the example's own count (GPU.fractionOnGPU), and that count when the
// level is drawn. On the panel the hero walks: an Aseprite file's "walk" tag, played from when the
// level is first drawn (`--animation-at MS` holds it at one moment, for a screenshot).
// Baked with `--gpu bc|astc`, the level's textures are BC7 or ASTC 4x4 blocks with mipmaps:
// loaded, they go to the GPU as they are through SDL's OpenGL renderer where the driver has the
// format, and are decoded on the CPU otherwise (RendererChoice, GPU.make); the last lines say
// which way they went and when the first full frame was drawn.
//
//     LoadingScreen [--assets DIR | --baked FILE.bake [--decode-on-cpu]] [--frames N] [--screenshot FILE.png] [--budget-ms 2] [--extra DIR] [--trace] [--animation-at MS]
//     LoadingScreen [--assets DIR] --bake FILE.bake [--gpu bc|astc]     (bakes the level and stops)

let options = Options(CommandLine.arguments.dropFirst())
if let pack = options.bakeTo {
    // The example's build step: the level's loose files baked into one pack, under the names
    // the scene looks up (`LoadingScreen --baked PACK` then loads it by mapping it).
    let loader = try PreloadCoordinator(plugins: Level.plugins)
    let loose = try await loader.preload(Level.requests(assets: options.assets), options: PreloadOptions(storesAssets: false))
    do {
        let textures = options.gpu.map { BakeWriter.TextureBaking(bake: GPUTextureBake(settings: .init(target: $0))) }
        let summary = try BakeWriter.write(loose, to: pack, textures: textures)
        print(summary)
        if let gpu = summary.gpu, let worst = gpu.worst {
            let formats = Set(gpu.textures.map(\.format.rawValue)).sorted().joined(separator: "/")
            print(
                "GPU textures: \(gpu.textures.count) \(formats), \(gpu.bytesAfter / 1024) KiB with mipmaps (\(gpu.rgba8Bytes / 1024) KiB in RGBA8);"
                    + " PSNR mean \(GPUTextureQuality.decibels(gpu.meanPSNR)), worst \(GPUTextureQuality.decibels(worst.psnr)) (\(worst.name))")
        }
    } catch {
        Options.fail("nothing baked: \(error)", status: 1)
    }
    exit(0)
}
guard SDL_Init(SDL_INIT_VIDEO) == 0 else { Options.fail("SDL_Init: \(String(cString: SDL_GetError()))", status: 1) }
defer { SDL_Quit() }
guard let window = SDL_CreateWindow("Preload: loading screen", 0, 0, 1280, 720, SDL_WINDOW_SHOWN.rawValue) else {
    Options.fail("SDL_CreateWindow: \(String(cString: SDL_GetError()))", status: 1)
}
let renderer = RendererChoice.renderer(for: window, options: options)
let gpu = GPU(renderer: renderer)

let coordinator = try PreloadCoordinator(plugins: Level.plugins + [BakedPackLoader()])
let handOff = AssetHandOff(releasesCPUCopies: true)
let report = Mutex<PreloadReport?>(nil)
// The bar reads the batch's progress once a frame (`batch.progress`), rather than a progress hook.
let batch = coordinator.preload(
    (options.baked.map { [AssetRequest(path: $0)] } ?? Level.requests(assets: options.assets))
        + (options.extra.map { [AssetRequest.folder($0, name: "extra")] } ?? []),
    options: PreloadOptions(
        progressWeighting: .decodedBytes, assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true,
        memoryBudget: 64 << 20)
) { finished in
    report.withLock { $0 = finished }
}

var frameStats = FrameStats()
/// What the loading bar shows: the batch's fraction less the rows still on their way to the GPU.
var barShown = 0.0
var layout: SceneLayout?
var audio: LevelAudio?
var frame = 0
/// When the hero's walk started playing: when the level was first drawn.
var animationStarted: ContinuousClock.Instant?
/// When the level was first drawn whole.
var firstFullFrame: (frame: Int, after: Duration)?
let started = ContinuousClock.now
running: while true {
    var event = SDL_Event()
    while SDL_PollEvent(&event) != 0 {
        if event.type == SDL_QUIT.rawValue { break running }
    }
    // This frame's upload time: first the bands of large textures still being filled, then, if
    // time is left, newly loaded assets from the hand-off.
    let frameStart = ContinuousClock.now
    let deadline = frameStart + options.frameBudget
    var handedOver = 0
    let texturesComplete = gpu.continueUploads(until: deadline)
    if texturesComplete, ContinuousClock.now < deadline {
        handedOver = handOff.drain(budget: deadline - ContinuousClock.now) { item in gpu.upload(item) }.handedOver
    }
    frameStats.record(ContinuousClock.now - frameStart, handedOver: handedOver, working: handedOver > 0 || !texturesComplete)
    let loaded = report.withLock { $0 }
    if let loaded, gpu.strips.isIdle {
        guard loaded.everythingLoaded else {
            Options.fail("the level did not load:\n" + loaded.errors.map { "  \($0)" }.joined(separator: "\n"), status: 1)
        }
        if layout == nil {
            // The level is ready: its sounds stayed in the store (the upload keeps no handle for them).
            audio = LevelAudio.start(
                sound: required(coordinator.assets.asset(named: "jump", as: Sound.self), "sound jump (audio/jump.wav)"),
                music: required(coordinator.assets.asset(named: "theme", as: Music.self), "music theme (audio/theme.wav)"))
        }
        let animationStart = animationStarted ?? ContinuousClock.now
        animationStarted = animationStart
        layout = Level.draw(
            on: gpu, store: coordinator.assets, assets: options.assets, animationTime: options.animationAt ?? ContinuousClock.now - animationStart)
        if firstFullFrame == nil {
            firstFullFrame = (frame, ContinuousClock.now - started)
            if options.trace { print(String(format: "loaded at frame %d: on the GPU %.3f", frame, gpu.fractionOnGPU(of: batch.progress))) }
        }
    } else {
        // The batch counts an item's weight (`item.progressWeight`, its dependencies' included)
        // when the engine takes it; a large texture's rows then reach the GPU over the next
        // frames: the bar leaves those out, so it shows what is on the GPU.
        let progress = batch.progress
        let total = Double(progress.totalUnitCount)
        let pending = total > 0 ? gpu.strips.pendingWeight / total : 0
        barShown = max(barShown, progress.fractionCompleted - pending)  // never backwards
        LoadingBar.draw(on: gpu, fraction: barShown)
        if options.trace {
            print(String(format: "frame %d: shown %.3f on the GPU %.3f", frame, barShown, gpu.fractionOnGPU(of: progress)))
        }
    }
    frame += 1
    let done = options.frames.map { frame >= $0 && layout != nil } ?? false
    let stuck = ContinuousClock.now - started > .seconds(60)
    if done || stuck, let path = options.screenshot {
        try Screenshot.save(renderer: renderer, width: 1280, height: 720, to: path)
        if let layout { try JSONEncoder().encode(layout).write(to: URL(fileURLWithPath: path + ".layout.json")) }
    }
    SDL_RenderPresent(renderer)
    if stuck { Options.fail("the level was not on the GPU after 60 s", status: 1) }
    if done { break }
    SDL_Delay(16)
}
audio?.close()
let memory = AssetMemory.shared.statistics
print(frameStats.summary(budget: options.frameBudget))
print(
    "uploaded \(gpu.uploadedBytes / 1024) KiB in \(frame) frames; store holds \(coordinator.assets.byteCount / 1024) KiB of CPU copies"
        + ", pool live \(memory.liveBytes / 1024) KiB; peak held while loading \((report.withLock { $0 }?.peakHeldBytes ?? 0) / 1024) KiB")
print(gpu.uploadPaths.summary)
if let firstFullFrame {
    print("first full frame: frame \(firstFullFrame.frame), \(String(format: "%.0f", firstFullFrame.after / .milliseconds(1))) ms after the start")
}
