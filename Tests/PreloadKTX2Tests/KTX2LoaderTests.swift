import Preload
import PreloadGPU
import PreloadKTX2
import PreloadPNG
import PreloadTestSupport
import Testing

/// The plugin inside a coordinator: what it claims, its size estimate, its settings, its warning.
@Suite struct KTX2LoaderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("ktx2-loader-tests")
    }

    @Test func claimsKTX2FilesByExtensionAndByIdentifier() async throws {
        let named = try directory.write("sky.ktx2", KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D_MIP.ktx2"))
        let disguised = try directory.write("sky.bin", KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D_MIP.ktx2"))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), KTX2Loader()])
        let report = try await coordinator.preload([AssetRequest(path: named), AssetRequest(path: disguised)])
        #expect(report.everythingLoaded && report.results.map(\.plugin) == ["ktx2", "ktx2"])
        #expect(coordinator.assets.texture(atPath: named)?.mipLevelCount == 4)
        #expect(coordinator.assets.texture(atPath: disguised) == coordinator.assets.texture(atPath: named))
        #expect(KTX2Loader().matchesSignature(KTX2File.identifier) && !KTX2Loader().matchesSignature(Array(KTX2File.identifier.prefix(11))))
        #expect(KTX2Loader().fileExtensions == ["ktx2"] && KTX2Loader().headerLength == 80)
    }

    @Test func estimatesEveryLevelsBytesFromTheHeader() {
        let loader = KTX2Loader()
        let header = { (name: String) in Array(KTX2Fixtures.bytes(name).prefix(80)) }
        #expect(loader.estimatedDecodedBytes(header: header("valid_R8G8B8A8_SRGB_2D_MIP.ktx2")) == 256 + 64 + 16 + 4)
        #expect(loader.estimatedDecodedBytes(header: header("valid_ASTC_4x4_SRGB_BLOCK_2D_MIP.ktx2")) == 368)
        #expect(loader.estimatedDecodedBytes(header: header("valid_R8G8B8A8_SRGB_2D_BLZE.ktx2")) == nil)
        #expect(loader.estimatedDecodedBytes(header: Array(header("valid_R8G8B8A8_SRGB_2D.ktx2").prefix(40))) == nil)
        let small = KTX2Loader(defaults: KTX2LoaderSettings(limits: ImageLimits(maxWidth: 4, maxHeight: 4)))
        #expect(small.estimatedDecodedBytes(header: header("valid_R8G8B8A8_SRGB_2D.ktx2")) == nil)
    }

    @Test func aTextureOverTheLimitsFailsBeforeItsPixelsExist() async throws {
        let file = try directory.write("big.ktx2", KTX2Fixtures.bytes("valid_ASTC_4x4_SRGB_BLOCK_2D_MIP.ktx2"))
        var request = AssetRequest(path: file, name: "limited")
        request.options[KTX2LoaderSettings.self] = KTX2LoaderSettings(limits: ImageLimits(maxWidth: 8, maxHeight: 8))
        let byBytes = KTX2Loader(defaults: KTX2LoaderSettings(limits: ImageLimits(maxDecodedBytes: 300)))
        let coordinator = try PreloadCoordinator(plugins: [KTX2Loader()])
        let report = try await coordinator.preload([request, AssetRequest(path: file, name: "free")])
        #expect(report.loaded.map(\.request.name) == ["free"])
        let error = try #require(report.failed.first?.outcome.error)
        #expect(error.category == .limitExceeded && error.path == file)
        #expect(error.underlying as? KTX2Error == .tooLarge(width: 16, height: 16, byteCount: .max, limits: ImageLimits(maxWidth: 8, maxHeight: 8)))
        let bytes = KTX2Fixtures.bytes("valid_ASTC_4x4_SRGB_BLOCK_2D_MIP.ktx2")
        #expect(throws: KTX2Error.tooLarge(width: 16, height: 16, byteCount: 368, limits: ImageLimits(maxDecodedBytes: 300))) {
            try bytes.withUnsafeBytes { try KTX2Loader.texture(decoding: $0, settings: byBytes.defaults) }
        }
    }

    /// `levelCount` 0 asks the loader to make the mipmap chain: the file's level loads, with a
    /// warning; a strict batch fails it.
    @Test func aLevelCountOfZeroLoadsLevelZeroWithAWarning() async throws {
        var bytes = KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D.ktx2")
        bytes.replaceSubrange(40..<44, with: [0, 0, 0, 0])
        let file = try directory.write("no-levels.ktx2", bytes)
        let coordinator = try PreloadCoordinator(plugins: [KTX2Loader()])
        let report = try await coordinator.preload([AssetRequest(path: file)])
        #expect(report.everythingLoaded && coordinator.assets.texture(atPath: file)?.mipLevelCount == 1)
        #expect(report.results.first?.warnings.map(\.code) == [.ktx2MipmapsNotGenerated])
        let strict = try PreloadCoordinator(plugins: [KTX2Loader()])
        let failed = try await strict.preload([AssetRequest(path: file)], options: PreloadOptions(isStrict: true))
        #expect(failed.failed.first?.outcome.error?.category == .strict)
    }
}
