import Dispatch
import Foundation
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// The engine-thread hand-off and the memory budget, with real PNG files: what the engine is
/// given, in which order, when the batch completes, what is released, and how much is held.
@Suite struct HandOffTests {
    let directory: TemporaryDirectory
    /// `image-0.png` ... `image-7.png`, 64x64 (16 KiB of pixels each, pooled), each its own noise.
    let images: [[UInt8]]
    let names = (0..<8).map { "image-\($0)" }

    init() throws {
        directory = try TemporaryDirectory()
        images = (0..<8).map { PNGFixture.noise(width: 64, height: 64, seed: UInt64($0) + 1) }
        for (name, pixels) in zip(names, images) {
            try directory.write("\(name).png", PNGFixture.rgba(width: 64, height: 64, pixels: pixels))
        }
    }

    private func requests() -> [AssetRequest] { names.map { AssetRequest(path: directory.file("\($0).png"), name: $0) } }

    private func coordinator(memory: AssetMemory = .shared) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 2, memory: memory))
    }

    @Test func theEngineGetsEachTextureInRequestOrderAndTheStoreKeepsItsHandle() async throws {
        let coordinator = try coordinator()
        let handOff = AssetHandOff()
        let batch = coordinator.start(requests(), options: PreloadOptions(assetEventOrder: .request, handOff: handOff))
        let report = try await batch.finished()
        #expect(report.everythingLoaded && handOff.count == 8, "queued, not handed over: the engine has not drained yet")
        var seen: [String] = []
        var drained: AssetHandOff.Drained
        repeat {
            drained = try handOff.drain(maxItems: 3) { item in
                seen.append(item.name)
                let texture = try #require(item.asset as? Texture)
                #expect(texture.pixels.array == images[names.firstIndex(of: item.name)!], "the decoded pixels of \(item.name)")
                return seen.count * 100  // the engine's texture name
            }
            #expect(drained.handedOver <= 3)
        } while drained.remaining > 0
        #expect(seen == names, "request order, whatever order the loads finished in")
        #expect(coordinator.assets.handle(named: "image-2", as: Int.self) == 300)
        #expect(coordinator.assets.texture(named: "image-2")?.pixels.array == images[2], "kept: the hand-off does not release by default")
        #expect(handOff.drain { _ in nil }.handedOver == 0, "nothing left")
    }

    @Test func aBatchThatWaitsForTheHandOffCompletesOnlyOnceTheEngineTookEverything() async throws {
        let coordinator = try coordinator()
        let handOff = AssetHandOff()
        let progress = Recorder<Double>()
        let batch = coordinator.start(
            requests(), options: PreloadOptions(handOff: handOff, completesAfterHandOff: true),
            hooks: PreloadHooks(onProgress: { progress.append($0.fractionCompleted) }))
        #expect(await handOff.waitUntilHolding(8, seconds: 300), "every texture reached the hand-off")
        try await Task.sleep(for: .milliseconds(50))  // for a completion that must not come: a batch holding it back signals nothing
        #expect(handOff.count == 8 && !batch.isFinished, "every texture loaded, none on the GPU: not finished")
        // Progress counts what is handed over: everything loaded, nothing on the GPU yet, shows
        // at most the 5% loading may add.
        #expect(batch.progress.fractionCompleted <= 0.05 + 1e-9, "\(batch.progress.fractionCompleted)")
        let sizes = try requests().map { Double(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as! Int) }
        var handedBytes = 0.0
        handOff.drain(maxItems: 4) { item in
            handedBytes += sizes[names.firstIndex(of: item.name)!]
            return 1
        }
        let handed = handedBytes / sizes.reduce(0, +)
        #expect(
            abs(batch.progress.fractionCompleted - (0.95 * handed + 0.05)) < 1e-6, "half the bytes handed over shows as that, plus the loading's 5%")
        #expect(!batch.isFinished)
        handOff.drain { _ in 1 }
        let report = try await batch.finished()
        #expect(report.loaded.count == 8 && batch.progress.fractionCompleted == 1)
        #expect(progress.all == progress.all.sorted(), "progress never goes back")
    }

    /// A batch of a folder counts its hand-off too (expanding the folder once dropped it, and
    /// the bar ran ahead of what was handed over).
    @Test func aFolderBatchThatWaitsForTheHandOffCountsWhatIsHandedOver() async throws {
        let coordinator = try coordinator()
        let handOff = AssetHandOff()
        let batch = coordinator.start([.folder(directory.path)], options: PreloadOptions(handOff: handOff, completesAfterHandOff: true))
        #expect(await handOff.waitUntilHolding(8, seconds: 300), "every texture reached the hand-off")
        #expect(batch.progress.fractionCompleted <= 0.05 + 1e-9, "loaded, none handed over: \(batch.progress.fractionCompleted)")
        handOff.drain { _ in 1 }
        let report = try await batch.finished()
        #expect(report.loaded.count == 8 && batch.progress.fractionCompleted == 1)
    }

    @Test func releasingTheCPUCopyFreesThePixelsAndKeepsTheHandle() async throws {
        let memory = AssetMemory(configuration: .init(retentionSeconds: 3600))
        let coordinator = try coordinator(memory: memory)
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        handOff.drainOnAThread(until: stop, maxItems: 1) { item in item.name == "image-0" ? nil : "gpu:\(item.name)" }
        defer { stop.withLock { $0 = true } }
        let report = try await coordinator.start(requests(), options: PreloadOptions(handOff: handOff, completesAfterHandOff: true))
            .finished()
        #expect(report.loaded.count == 8)
        let released = try #require(coordinator.assets.entry(named: "image-3")?.asset as? HandedOverAsset)
        #expect(released.releasedByteCount == 64 * 64 * 4 && released.kind == .texture && released.summary == "texture 64x64 rgba8")
        #expect(released.handle as? String == "gpu:image-3" && coordinator.assets.handle(named: "image-3", as: String.self) == "gpu:image-3")
        #expect(coordinator.assets.texture(named: "image-3") == nil, "the pixels are gone from the store")
        #expect(report.results.first { $0.request.name == "image-3" }?.outcome.asset is HandedOverAsset, "and from the report")
        #expect(coordinator.assets.texture(named: "image-0")?.pixels.array == images[0], "no handle, nothing released")
        #expect(coordinator.assets.byteCount == 64 * 64 * 4, "only image-0's pixels stay")
        #expect(memory.statistics.liveBytes < 2 * 64 * 64 * 4, "seven textures' pooled pixels went back to the pool")
    }

    @Test func aMemoryBudgetBoundsWhatIsHeldAndEveryTextureStillLoads() async throws {
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        let checksums = Recorder<String>()
        handOff.drainOnAThread(until: stop, maxItems: 1, pause: 0.005) { item in
            let texture = item.asset as! Texture
            checksums.append("\(item.name):\(texture.pixels.reduce(0) { $0 &+ Int($1) })")
            return 1
        }
        defer { stop.withLock { $0 = true } }
        let budget = 40 << 10  // two textures of 16 KiB fit, a third does not
        let report = try await coordinator().start(
            requests(), options: PreloadOptions(storesAssets: false, handOff: handOff, completesAfterHandOff: true, memoryBudget: budget)
        ).finished()
        #expect(report.loaded.count == 8)
        #expect(report.peakHeldBytes <= 2 * 64 * 64 * 4 && report.peakHeldBytes >= 64 * 64 * 4, "at most two at once: \(report.peakHeldBytes)")
        let expected = zip(names, images).map { "\($0):\($1.reduce(0) { $0 &+ Int($1) })" }
        #expect(checksums.all.sorted() == expected.sorted(), "every texture reached the consumer, exactly")
    }

    @Test func oneTextureLargerThanTheBudgetLoadsAlone() async throws {
        let report = try await coordinator().start(requests(), options: PreloadOptions(memoryBudget: 1000)).finished()
        #expect(report.loaded.count == 8)
        #expect(report.peakHeldBytes == 64 * 64 * 4, "one at a time")
    }

    @Test func cancellingABatchStuckOnAFullBudgetEndsIt() async throws {
        let handOff = AssetHandOff()  // never drained: the budget fills and the other loads wait
        let batch = try coordinator().start(
            requests(), options: PreloadOptions(handOff: handOff, completesAfterHandOff: true, memoryBudget: 40 << 10))
        #expect(await handOff.waitUntilHolding(2, seconds: 300), "two textures reached the hand-off")
        try await Task.sleep(for: .milliseconds(50))  // for a third load that must not come: a load waiting for the budget signals nothing
        #expect(handOff.count == 2 && !batch.isFinished, "two loaded, the rest wait for the engine")
        batch.cancel()
        let report = try await batch.finished()
        #expect(report.loaded.count == 2 && report.cancelled.count == 6)
        #expect(handOff.count == 0, "a cancelled batch's assets are withdrawn from the hand-off")
    }

    /// Every asset loaded and waits for the engine when the batch is cancelled: the report says
    /// the batch was cancelled, not that the level is ready.
    @Test func cancellingABatchWaitingOnlyForTheEngineSaysSo() async throws {
        let handOff = AssetHandOff()  // never drained
        let batch = try coordinator().start(Array(requests().prefix(2)), options: PreloadOptions(handOff: handOff, completesAfterHandOff: true))
        #expect(await handOff.waitUntilHolding(2, seconds: 300), "both textures wait for the engine")
        batch.cancel()
        let report = try await batch.finished()
        #expect(report.loaded.count == 2 && report.wasCancelled && handOff.count == 0)
        #expect("\(report)".hasPrefix("2 of 2 loaded, batch cancelled, in "), "\(report)")
    }

    @Test func anUploadThatThrowsIsRethrownAndTheBatchGoesOn() async throws {
        struct UploadFailed: Error {}
        let handOff = AssetHandOff()
        let batch = try coordinator().start(
            Array(requests().prefix(2)), options: PreloadOptions(handOff: handOff, completesAfterHandOff: true))
        #expect(await handOff.waitUntilHolding(2, seconds: 300), "both textures reached the hand-off")
        #expect(throws: UploadFailed.self) { try handOff.drain(maxItems: 1) { _ in throw UploadFailed() } }
        #expect(handOff.count == 1)
        handOff.drain { _ in nil }
        #expect(try await batch.finished().loaded.count == 2)
    }
}
