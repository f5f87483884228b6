import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadConcurrency
import PreloadGPU
import PreloadTestSupport
import Testing

/// Textures baked with a mipmap chain or in a GPU format (kind 7): what loading gives back, and
/// what a damaged header does.
@Suite struct BakedGPUTextureTests {
    /// Bakes the small pack's sources with `baking`; returns the pack and the loose report.
    private func bake(_ baking: BakeWriter.TextureBaking, in directory: TemporaryDirectory) async throws -> (String, PreloadReport) {
        _ = try await BakedFixtures.smallPack(in: directory)
        let report = try await BakedFixtures.coordinator().preload(
            BakedFixtures.smallPackSources(in: directory), options: PreloadOptions(storesAssets: false))
        let pack = directory.file("gpu.bake")
        try BakeWriter.write(report, to: pack, textures: baking)
        return (pack, report)
    }

    @Test func mipmappedTexturesLoadAsViewsWithEveryLevel() async throws {
        let directory = try TemporaryDirectory()
        let (pack, loose) = try await bake(.init(bake: GPUTextureBake(settings: .init(target: .rgba8))), in: directory)
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        for result in loose.results {
            guard let source = result.outcome.asset as? Texture else { continue }
            let texture = try #require(coordinator.assets.texture(named: result.request.name))
            #expect(texture.pixelFormat == .rgba8 && texture.pixels.isMapped)
            #expect(texture.mipLevelCount == Texture.fullMipLevelCount(width: source.width, height: source.height))
            let expected = MipChain.levels(of: RGBAImage(source), colorSpace: .sRGB, alphaMode: .straight)
            #expect(texture.levels.map { Array(texture.pixels[$0.offset..<$0.offset + $0.byteCount]) } == expected.map(\.pixels))
            #expect(texture.byteCount == expected.reduce(0) { $0 + $1.pixels.count }, "the budget counts every level")
        }
    }

    @Test func aDamagedHeaderFailsItsEntryByName() async throws {
        let directory = try TemporaryDirectory()
        let (pack, _) = try await bake(.init(bake: GPUTextureBake(settings: .init(target: .rgba8))), in: directory)
        // The Vulkan format number of the first texture's header (bytes 8-11) says BC7.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        let index = try bytes.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let first = try #require(index.entries.first { $0.kind == "gpuTexture" })
        bytes[Int(first.record.dataOffset) + 8] = 146
        try Data(bytes).write(to: URL(fileURLWithPath: pack))
        let coordinator = try BakedFixtures.coordinator(baked: BakedPackLoader(verification: .indexOnly))
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        let failed = report.results.filter { $0.outcome.error != nil }
        #expect(failed.map(\.request.name) == [first.name])
        let message = failed.first?.outcome.error.map { "\($0)" } ?? ""
        #expect(message.contains("Vulkan, OpenGL or block numbers"), "\(message)")
        #expect(report.results.count - failed.count == 3, "the others load")
    }
}

/// A GPU-baked pack under the memory budget and the hand-off: what counts is the compressed
/// bytes of every level, not the RGBA8 they stand for.
@Suite struct BakedGPUTextureBudgetTests {
    @Test func theBudgetAndTheHandOffCountCompressedBytes() async throws {
        let directory = try TemporaryDirectory()
        var sources: [AssetRequest] = []
        for index in 0..<6 {
            let pixels = PNGFixture.noise(width: 64, height: 64, seed: UInt64(index) + 1)
            let path = try directory.write("art/tile-\(index).png", PNGFixture.rgba(width: 64, height: 64, pixels: pixels))
            sources.append(AssetRequest(path: path, name: "art/tile-\(index).png"))
        }
        let report = try await BakedFixtures.coordinator().preload(sources, options: PreloadOptions(storesAssets: false))
        let pack = directory.file("level.bake")
        try BakeWriter.write(report, to: pack, textures: .init(bake: GPUTextureBake(settings: .init(target: .bc, quality: .fast))))
        // 64x64 BC7 with its chain: 4096 + 1024 + 256 + 64 + 16 + 16 + 16 bytes.
        let compressed = 4096 + 1024 + 256 + 64 + 16 + 16 + 16

        let handOff = AssetHandOff(releasesCPUCopies: true)
        let released = Recorder<Int>()
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        handOff.drainOnAThread(until: stop, maxItems: 1) { item in
            let texture = item.asset as! Texture
            released.append(texture.byteCount)
            return texture.pixelFormat.rawValue
        }
        let coordinator = try PreloadCoordinator(plugins: BakedFixtures.plugins(), configuration: .init(maxConcurrentLoads: 2))
        let loaded = try await coordinator.start(
            [AssetRequest(path: pack)],
            options: PreloadOptions(assetEventOrder: .completion, handOff: handOff, completesAfterHandOff: true, memoryBudget: 2 * compressed)
        ).finished()
        #expect(loaded.loaded.count == 6, "\(loaded.errors)")
        #expect(released.all == Array(repeating: compressed, count: 6), "the engine is handed the blocks of every level")
        #expect(loaded.decodedBytes == 6 * compressed)
        // Counted compressed, a texture fits the budget (counted as RGBA8, 16 KiB and its chain, it
        // would not: it would load alone, over it). In completion order the bound is exact; in
        // request order it is not (a load goes over it when all that is held waits for an earlier
        // asset, which on a loaded machine can be every load after a first one that starts late).
        #expect(loaded.peakHeldBytes > 0 && loaded.peakHeldBytes <= 2 * compressed, "\(loaded.peakHeldBytes)")
        #expect(coordinator.assets.handle(named: "art/tile-0.png", as: String.self) == "bc7")
    }
}

/// `preload export` of a GPU-baked pack: PNG shows what the GPU samples, KTX2 keeps the blocks.
@Suite struct BakedGPUTextureExportTests {
    @Test func pngDecodesTheBlocksAndKTX2KeepsThem() async throws {
        let directory = try TemporaryDirectory()
        _ = try await BakedFixtures.smallPack(in: directory)
        let sources = try await BakedFixtures.coordinator().preload(
            BakedFixtures.smallPackSources(in: directory), options: PreloadOptions(storesAssets: false))
        let pack = directory.file("gpu.bake")
        try BakeWriter.write(sources, to: pack, textures: .init(bake: GPUTextureBake(settings: .init(target: .bc, quality: .fast))))
        let report = try await BakedFixtures.coordinator().preload([AssetRequest(path: pack)], options: PreloadOptions(storesAssets: false))
        let textures = TextureExporter.textures(in: report)
        #expect(textures.count == 3 && textures.allSatisfy { $0.texture.pixelFormat == .bc7 })

        let png = try TextureExporter.write(report, to: directory.file("png"))
        #expect(png.files.count == 3 && png.skipped.isEmpty)
        let ktx2 = try TextureExporter.write(report, to: directory.file("ktx2"), as: .ktx2(.zstd))
        #expect(ktx2.files.count == 3 && ktx2.files.allSatisfy { $0.hasSuffix(".png.ktx2") })
        let loader = try PreloadCoordinator(plugins: BakedFixtures.plugins())
        for (name, texture) in textures {
            let decoded = try RGBAImage(decoding: texture)
            let exported = try await loader.preload([AssetRequest(path: directory.file("png/\(name).png"), name: "check/\(name)")])
            let image = try #require(exported.results.first?.outcome.asset as? Texture)
            #expect(RGBAImage(image) == decoded, "\(name): the PNG is level 0 as the GPU samples it")
            let file = try KTX2File(decoding: [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file("ktx2/\(name).ktx2")))))
            #expect(file.texture == texture, "\(name): the KTX2 file holds every level's blocks, as the pack does")
        }
        // Encoding a GPU texture again (a BC7 pack exported with --gpu) starts from its level 0 decoded.
        let again = try TextureExporter.write(
            report, to: directory.file("again"), as: .ktx2(.none),
            baking: .init(bake: GPUTextureBake(settings: .init(target: .bc, quality: .fast, mipmaps: false))))
        #expect(again.files.count == 3 && again.gpu?.textures.allSatisfy { $0.format == .bc7 } == true)
    }
}
