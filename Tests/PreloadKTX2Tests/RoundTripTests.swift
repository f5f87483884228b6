import Preload
import PreloadAuthoring
import PreloadGPU
import PreloadKTX2
import PreloadPNG
import PreloadTestSupport
import Testing

/// What Preload writes as KTX2 (PreloadGPU's `KTX2File`, `preload export --ktx2`, with and
/// without `--gpu`) loads back with the same level bytes.
@Suite struct RoundTripTests {
    /// A texture of `format` whose every level's bytes are made up (KTX2 stores blocks as they are).
    static func texture(_ format: PixelFormat, colorSpace: ColorSpace, alphaMode: AlphaMode, mipLevelCount: Int) -> Texture {
        var random = SeededRandom(seed: UInt64(mipLevelCount) * 31 + UInt64(format.bytesPerBlock))
        let count = Texture.byteCount(width: 13, height: 7, pixelFormat: format, mipLevelCount: mipLevelCount)
        return Texture(
            width: 13, height: 7, pixelFormat: format, alphaMode: alphaMode, colorSpace: colorSpace, mipLevelCount: mipLevelCount,
            pixels: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    @Test(arguments: PixelFormat.allCases, KTX2Supercompression.allCases)
    func whatPreloadGPUWritesLoadsBackLevelForLevel(_ format: PixelFormat, _ supercompression: KTX2Supercompression) throws {
        for (colorSpace, alphaMode) in [(ColorSpace.sRGB, AlphaMode.straight), (.linear, .premultiplied)] {
            for mipLevelCount in [1, Texture.fullMipLevelCount(width: 13, height: 7)] {
                let texture = Self.texture(format, colorSpace: colorSpace, alphaMode: alphaMode, mipLevelCount: mipLevelCount)
                let bytes = try KTX2File(texture: texture, supercompression: supercompression).encoded(zstdLevel: 3)
                let loaded = try KTX2Fixtures.texture(bytes)
                #expect(loaded == texture, "\(format) \(colorSpace) \(alphaMode) \(mipLevelCount) levels \(supercompression)")
                #expect(loaded.levels == texture.levels)
            }
        }
    }

    /// `preload export --ktx2 [--zstd] [--gpu bc]`'s exporter, on textures a PNG loader loaded:
    /// the files it writes load through a coordinator with ``KTX2Loader`` into the textures it
    /// wrote (as loaded, or as the GPU bake made them: BC7 with every level).
    @Test func whatTheExporterWritesLoadsBack() async throws {
        let directory = try TemporaryDirectory("ktx2-export")
        let sprite = try directory.write(
            "art/sprite.png", PNGFixture.rgba(width: 24, height: 20, pixels: PNGFixture.noise(width: 24, height: 20, seed: 7)))
        let source = try PreloadCoordinator(plugins: [PNGLoader()])
        let report = try await source.preload([AssetRequest(path: sprite, name: "sprite")])
        let original = try #require(source.assets.texture(named: "sprite"))
        let bake = GPUTextureBake(settings: GPUTextureBake.Settings(target: .bc, quality: .fast))
        let baked = try bake.bake(original).texture
        #expect(baked.pixelFormat == .bc7 && baked.mipLevelCount == 5)

        for (folder, format, baking, expected) in [
            ("plain", TextureExporter.FileFormat.ktx2(.none), nil, original), ("zstd", .ktx2(.zstd), nil, original),
            ("bc", .ktx2(.zstd), BakeWriter.TextureBaking(bake: bake), baked),
        ] as [(String, TextureExporter.FileFormat, BakeWriter.TextureBaking?, Texture)] {
            let exported = try TextureExporter.write(report, to: directory.file(folder), as: format, baking: baking)
            let file = try #require(exported.files.first)
            #expect(exported.files.count == 1 && file.hasSuffix("/sprite.ktx2"))
            let coordinator = try PreloadCoordinator(plugins: [KTX2Loader()])
            let loaded = try await coordinator.preload([AssetRequest(path: file, name: folder)])
            #expect(loaded.everythingLoaded && loaded.results.first?.plugin == "ktx2" && loaded.warned.isEmpty)
            let texture = try #require(coordinator.assets.texture(named: folder))
            #expect(texture == expected, "\(folder)")
            #expect(texture.levels == expected.levels && texture.colorSpace == expected.colorSpace)
        }
    }
}
