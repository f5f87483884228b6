import Dispatch
import Foundation
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

    @Test func loadsATextureIntoTheStore() async throws {
        let report = try await coordinator.start([AssetRequest(path: directory.file("sprite.png"), name: "sprite")]).finished()
        #expect(report.everythingLoaded)
        let texture = try #require(coordinator.assets.texture(named: "sprite"))
        #expect(texture.pixels == pixels && texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        #expect(report.results.first?.plugin == "png")
    }

    @Test func anUnloadedTexturesMemoryServesTheNextLoad() async throws {
        let memory = AssetMemory(configuration: .init(retentionSeconds: 3600))  // no expiry while a loaded machine runs the test
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 2, memory: memory))
        let big = PNGFixture.noise(width: 300, height: 300, seed: 9)  // 360,000 bytes of pixels, pooled
        let path = try directory.write("big.png", PNGFixture.rgba(width: 300, height: 300, pixels: big))
        #expect(try await coordinator.start([AssetRequest(path: path, name: "big")]).finished().everythingLoaded)
        #expect(coordinator.assets.texture(named: "big")?.pixels.isPooled == true)
        #expect(memory.statistics.liveBytes >= 360_000 && memory.statistics.reusedRegions == 0)
        #expect(coordinator.assets.unload(named: "big"))
        // A poll: the pixels go when the library's threads let go of the finished batch, which signals nothing.
        let deadline = ContinuousClock.now + .seconds(120)  // generous: it ends as soon as the memory is back
        while memory.statistics.liveBytes > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(memory.statistics.liveBytes == 0, "nothing holds the unloaded texture")

        #expect(try await coordinator.start([AssetRequest(path: path, name: "big")]).finished().everythingLoaded)
        #expect(coordinator.assets.texture(named: "big")?.pixels.array == big, "decoded into reused memory, exactly")
        // The file's bytes (noise does not compress: about 360 KB, pooled too) and the pixels:
        // both regions come back, and neither load of the second batch maps fresh memory.
        #expect(memory.statistics.reusedRegions == 2 && memory.statistics.mappedRegions == 2)
    }

    @Test func claimsAPNGByContentWhateverItsName() async throws {
        let disguised = try directory.write("sprite.bin", PNGFixture.rgba(width: 16, height: 16, pixels: pixels))
        let report = try await coordinator.start([AssetRequest(path: disguised)]).finished()
        #expect(report.results.first?.plugin == "png")
        #expect(coordinator.assets.texture(atPath: disguised)?.pixels.array == pixels)
    }

    @Test func optionsPerRequestAreSeparateLoadsAndDuplicatesMerge() async throws {
        let path = directory.file("sprite.png")
        var premultiplied = AssetRequest(path: path, name: "premultiplied")
        premultiplied.options[PNGLoaderSettings.self] = PNGLoaderSettings(alphaMode: .premultiplied)
        let requests = [AssetRequest(path: path, name: "a"), AssetRequest(path: path, name: "b"), premultiplied]
        let report = try await coordinator.start(requests).finished()
        #expect(report.everythingLoaded)
        #expect(Set(report.results.compactMap(\.assetIndex)).count == 2, "straight twice (merged) + premultiplied")
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

    @Test func badFilesFailAloneWithTheirCause() async throws {
        let fake = try directory.write("fake.png", Array("not a png".utf8))
        let empty = try directory.write("empty.png", [])
        let report = try await coordinator.start([
            AssetRequest(path: fake), AssetRequest(path: directory.file("sprite.png")), AssetRequest(path: empty),
        ]).finished()
        #expect(report.loaded.count == 1)
        #expect(
            report.errors.map(\.description) == [
                "\(fake): not a PNG file (no PNG signature)", "\(empty): empty file, not a PNG",
            ])
        #expect(report.errors.first?.underlying as? PNGDecodeError == .notPNG)
    }

    @Test func cancellingABatchStopsAnInFlightDecode() async throws {
        // 512 rows in bands of 32 (64 KB): the decode is held at its first progress report (the
        // image data inflated, no row unfiltered yet) until the batch is cancelled, then must
        // stop at its next check between bands instead of decoding the rest. No race against
        // the decode's few milliseconds: it waits for the cancel, however busy the machine.
        let side = 512
        let rows: [UInt8] = (0..<(side * side * 4)).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index / 7) }
        let big = try directory.write("big.png", PNGFixture.rgba(width: side, height: side, pixels: rows, level: 1))
        let cancelled = try await cancelledInFlight(PNGLoader(), AssetRequest(path: big))
        #expect(cancelled.report.cancelled.count == 1 && cancelled.report.wasCancelled)
        #expect(cancelled.ends == [.stopped], "the decode went on after the cancel")
        #expect(cancelled.assets == 0)
    }

    @Test func progressCanBeWeightedByDecodedSize() async throws {
        try directory.write("wide.png", PNGFixture.rgba(width: 64, height: 2, pixels: PNGFixture.noise(width: 64, height: 2)))
        let requests = [AssetRequest(path: directory.file("sprite.png")), AssetRequest(path: directory.file("wide.png"))]
        let batch = coordinator.start(requests, options: PreloadOptions(progressWeighting: .decodedBytes))
        _ = try await batch.finished()
        let expected: Int64 = 16 * 16 * 4 + 64 * 2 * 4
        #expect(batch.progress.totalUnitCount == expected)
    }
}

/// Files are claimed by content, not only by name: a PNG saved under another format's extension
/// loads as a PNG, with a warning saying so (`--strict` fails it).
@Suite struct ContentClaimTests {
    /// A plugin for `.dat` files starting `DAT1`, sniffing content as codecs do.
    struct DatLoader: LoaderPlugin {
        let identifier = "dat"
        let assetKind = AssetKind.data
        let fileExtensions: Set<String> = ["dat"]
        var headerLength: Int { 4 }
        func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: Array("DAT1".utf8)) }
        func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: try context.readContents()) }
    }

    @Test func aPNGNamedLikeAnotherFormatLoadsAsAPNGWithAWarning() async throws {
        let directory = try TemporaryDirectory()
        let png = try directory.write("hero.dat", PNGFixture.rgba(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8]))
        let real = try directory.write("real.dat", Array("DAT1 payload".utf8))
        let coordinator = try PreloadCoordinator(plugins: [DatLoader(), PNGLoader()])
        let report = try await coordinator.preload([AssetRequest(path: png), AssetRequest(path: real)])
        #expect(report.everythingLoaded, "\(report.errors)")
        let hero = try #require(report.results.first)
        #expect(hero.plugin == "png" && (hero.outcome.asset as? Texture)?.width == 2)
        #expect(hero.warnings.map(\.code) == [.contentNotExtension], "\(hero.warnings)")
        #expect(report.results.last?.plugin == "dat" && report.results.last?.warnings.isEmpty == true, "a file its extension's plugin recognises")
        let strict = try await coordinator.preload([AssetRequest(path: png)], options: PreloadOptions(isStrict: true))
        #expect(strict.errors.first?.category == .strict, "\(strict.errors)")
        // Named with a plugin, a request is that plugin's, content or not.
        let forced = try await coordinator.preload([AssetRequest(path: png, plugin: "dat")])
        #expect(forced.results.first?.plugin == "dat")
    }
}
