import Foundation
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// `PreloadOptions.reportKeepsAssets` off, with real PNG files: the batch lets go of each
/// texture once recorded (its result holds a `ReleasedAsset`), and every figure of the report
/// reads as it does with the textures kept.
@Suite struct ReportReleaseTests {
    let directory: TemporaryDirectory
    /// `image-0.png` ... `image-7.png`, 64x64 (16 KiB of pixels each, pooled), each its own noise.
    let names = (0..<8).map { "image-\($0)" }
    static let textureBytes = 64 * 64 * 4

    init() throws {
        directory = try TemporaryDirectory()
        for (index, name) in names.enumerated() {
            let pixels = PNGFixture.noise(width: 64, height: 64, seed: UInt64(index) + 1)
            try directory.write("\(name).png", PNGFixture.rgba(width: 64, height: 64, pixels: pixels))
        }
        try directory.write("broken.png", PNGFixture.signature + [1, 2, 3])
    }

    private func coordinator(memory: AssetMemory) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 2, memory: memory))
    }

    /// A folder (walked while its first files load: those are let go once planning ends) and
    /// the files named one by one.
    private var batches: [[AssetRequest]] {
        [[.folder(directory.path)], (names + ["broken"]).map { AssetRequest(path: directory.file("\($0).png"), name: $0) }]
    }

    @Test func aBatchThatKeepsNoAssetHoldsNoPixelsAndReportsTheSame() async throws {
        for requests in batches {
            let keptMemory = AssetMemory(configuration: .init(retentionSeconds: 3600))
            let kept = try await coordinator(memory: keptMemory).preload(requests, options: PreloadOptions(storesAssets: false))
            let memory = AssetMemory(configuration: .init(retentionSeconds: 3600))
            let report = try await coordinator(memory: memory).preload(
                requests, options: PreloadOptions(storesAssets: false, reportKeepsAssets: false))

            #expect(kept.results.allSatisfy { $0.outcome.asset == nil || $0.outcome.asset is Texture }, "kept by default")
            #expect(keptMemory.statistics.liveBytes >= 8 * Self.textureBytes, "the report holds every texture's pixels")
            #expect(memory.statistics.liveBytes < Self.textureBytes, "every texture's pixels went back: \(memory.statistics.liveBytes)")
            for result in report.loaded {
                let released = try #require(result.outcome.asset as? ReleasedAsset, "\(result.request.name): \(result.outcome)")
                #expect(released.kind == .texture && released.releasedByteCount == Self.textureBytes && released.byteCount == 0)
            }
            #expect(report.results.outcomeCounts == kept.results.outcomeCounts && report.loaded.count == 8 && report.failed.count == 1)
            #expect(report.decodedBytes == kept.decodedBytes && report.decodedBytes == 8 * Self.textureBytes)
            #expect(report.errors.map(\.description) == kept.errors.map(\.description))
            #expect(report.results.map(\.request.name) == kept.results.map(\.request.name))
        }
    }

    @Test func aBatchThatHandsResultsOnKeepsThem() async throws {
        let delivered = Recorder<Bool>()
        let report = try await coordinator(memory: .shared).preload(
            [.folder(directory.path)], options: PreloadOptions(storesAssets: false, reportKeepsAssets: false),
            hooks: PreloadHooks(onAssetLoaded: { delivered.append($0.outcome.asset is Texture) }))
        #expect(delivered.all.count == 8 && delivered.all.allSatisfy { $0 }, "each hook got its texture")
        #expect(report.loaded.count == 8 && report.loaded.allSatisfy { $0.outcome.asset is Texture }, "and the report kept them")
    }

    @Test func theStoreKeepsItsOwn() async throws {
        let coordinator = try coordinator(memory: .shared)
        let report = try await coordinator.preload([.folder(directory.path)], options: PreloadOptions(reportKeepsAssets: false))
        #expect(report.loaded.count == 8 && report.loaded.allSatisfy { $0.outcome.asset is ReleasedAsset })
        for result in report.loaded {
            #expect(coordinator.assets.texture(named: result.request.name)?.width == 64, "\(result.request.name) is in the store")
        }
    }
}
