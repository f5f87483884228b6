import Dispatch
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// The PNG plugin inside the coordinator: claims, options per request, merging, cancellation.
@Suite struct PNGLoaderTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator
    let pixels = PNGFixture.noise(width: 16, height: 16, seed: 4)

    init() throws {
        directory = try TemporaryDirectory()
        coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 2))
        try directory.write("sprite.png", PNGFixture.rgba(width: 16, height: 16, pixels: pixels))
    }

    func wait(_ batch: PreloadBatch) throws -> PreloadReport {
        let done = DispatchSemaphore(value: 0)
        batch.whenFinished { _ in done.signal() }
        try #require(done.wait(timeout: .now() + 30) == .success)
        return try #require(batch.report)
    }

    @Test func loadsATextureIntoTheStore() throws {
        let report = try wait(coordinator.start([AssetRequest(path: directory.file("sprite.png"), name: "sprite")]))
        #expect(report.succeeded)
        let texture = try #require(coordinator.assets.texture(named: "sprite"))
        #expect(texture.pixels == pixels && texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        #expect(report.results.first?.plugin == "png")
    }

    @Test func claimsAPNGByContentWhateverItsName() throws {
        let disguised = try directory.write("sprite.bin", PNGFixture.rgba(width: 16, height: 16, pixels: pixels))
        let report = try wait(coordinator.start([AssetRequest(path: disguised)]))
        #expect(report.results.first?.plugin == "png")
        #expect(coordinator.assets.texture(atPath: disguised)?.pixels == pixels)
    }

    @Test func optionsPerRequestAreSeparateLoadsAndDuplicatesMerge() throws {
        let path = directory.file("sprite.png")
        var premultiplied = AssetRequest(path: path, name: "premultiplied")
        premultiplied.options[PNGOptions.self] = PNGDecodeOptions(alphaMode: .premultiplied)
        let requests = [AssetRequest(path: path, name: "a"), AssetRequest(path: path, name: "b"), premultiplied]
        let report = try wait(coordinator.start(requests))
        #expect(report.succeeded)
        #expect(Set(report.results.compactMap(\.loadIndex)).count == 2, "straight twice (merged) + premultiplied")
        let a = try #require(coordinator.assets.texture(named: "a"))
        let b = try #require(coordinator.assets.texture(named: "b"))
        a.pixels.withUnsafeBufferPointer { first in
            b.pixels.withUnsafeBufferPointer { second in
                #expect(first.baseAddress == second.baseAddress, "one decode, one pixel buffer")
            }
        }
        #expect(coordinator.assets.texture(named: "premultiplied")?.alphaMode == .premultiplied)
        #expect(report.decodedBytes == 2 * 16 * 16 * 4)
    }

    @Test func badFilesFailAloneWithTheirCause() throws {
        let fake = try directory.write("fake.png", Array("not a png".utf8))
        let empty = try directory.write("empty.png", [])
        let report = try wait(coordinator.start([
            AssetRequest(path: fake), AssetRequest(path: directory.file("sprite.png")), AssetRequest(path: empty),
        ]))
        #expect(report.loaded.count == 1)
        #expect(report.errors.map(\.description) == [
            "\(fake): not a PNG file (no PNG signature)", "\(empty): empty file, not a PNG",
        ])
        #expect(report.errors.first?.underlying as? PNGDecodeError == .notPNG)
    }

    @Test func cancellingABatchStopsAnInFlightDecode() throws {
        let side = 2048
        let rows: [UInt8] = (0..<(side * side * 4)).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index / 7) }
        let big = try directory.write("big.png", PNGFixture.rgba(width: side, height: side, pixels: rows, level: 1))
        let started = DispatchSemaphore(value: 0)
        let batch = coordinator.start(
            [AssetRequest(path: big)], options: PreloadOptions(progressInterval: .zero),
            hooks: PreloadHooks(onProgress: { progress in
                if progress.fractionCompleted > 0 { started.signal() }
            }))
        try #require(started.wait(timeout: .now() + 30) == .success)
        batch.cancel()
        let report = try wait(batch)
        #expect(report.cancelled.count == 1 && report.wasCancelled)
        #expect(coordinator.assets.count == 0)
    }

    @Test func progressCanBeWeightedByDecodedSize() throws {
        try directory.write("wide.png", PNGFixture.rgba(width: 64, height: 2, pixels: PNGFixture.noise(width: 64, height: 2)))
        let requests = [AssetRequest(path: directory.file("sprite.png")), AssetRequest(path: directory.file("wide.png"))]
        let batch = coordinator.start(requests, options: PreloadOptions(progressWeighting: .decodedBytes))
        _ = try wait(batch)
        let expected: Int64 = 16 * 16 * 4 + 64 * 2 * 4
        #expect(batch.progress.totalUnitCount == expected)
    }
}
