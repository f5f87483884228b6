import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadGLReadback
import PreloadGPU
import PreloadPNG
import PreloadTestSupport
import Testing

/// What a GPU bake writes, uploaded as an engine uploads it (`glCompressedTexImage2D`, every
/// level, from the mapped pack) and read back from Mesa's llvmpipe: the driver decodes every
/// level as the project's own decoders do, and level 0 is as close to the source as the bake
/// said.
@Suite(.enabled(if: ReadbackCase.available, "needs libEGL and a Mesa driver (libegl1, libegl-mesa0, libgl1-mesa-dri)"))
struct BakedUploadTests {
    /// A bake to check: its settings, and the library it needs (nil: none).
    struct Bake: Sendable, CustomTestStringConvertible {
        var settings: GPUTextureBake.Settings
        var name: String
        var testDescription: String { name }

        /// Whether the library its encoders open is on this machine (libstb0 for BC1, libastcenc3d
        /// for ASTC: `.ci/system-packages install gpu`); a bake without it is skipped.
        var librariesInstalled: Bool {
            switch settings.target {
            case .astc: (try? ASTCEncoder()) != nil
            case .bc: settings.opaqueFormat != .bc1 || (try? DXTEncoder(format: .bc1)) != nil
            case .rgba8: true
            }
        }
    }

    static let bakes = [
        Bake(settings: .init(target: .bc, quality: .fast), name: "BC7"),
        Bake(settings: .init(target: .bc, quality: .fast, opaqueFormat: .bc1), name: "BC7, BC1 when opaque"),
        Bake(settings: .init(target: .astc, quality: .fast), name: "ASTC 4x4"),
        Bake(settings: .init(target: .astc, quality: .fast, astcBlock: .astc6x6), name: "ASTC 6x6"),
        Bake(settings: .init(target: .rgba8), name: "RGBA8 with mipmaps"),
    ]

    /// A sprite with soft edges and transparent corners (odd sides: partial blocks at the right
    /// and bottom), and an opaque tile: what games bake.
    static func sources(in directory: TemporaryDirectory) throws -> [AssetRequest] {
        let (width, height) = (46, 38)
        var sprite = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - 22.5, dy = Double(y) - 18.5
                let inside = max(0, min(1, 17 - (dx * dx + dy * dy).squareRoot()))
                let offset = (y * width + x) * 4
                sprite[offset] = UInt8(40 + x * 4)
                sprite[offset + 1] = UInt8(200 - y * 3)
                sprite[offset + 2] = UInt8((x * y) % 200)
                sprite[offset + 3] = UInt8(inside * 255)
            }
        }
        var tile = [UInt8](repeating: 255, count: 32 * 32 * 4)
        for index in 0..<32 * 32 {
            tile[index * 4] = UInt8((index % 32) * 8)
            tile[index * 4 + 1] = UInt8((index / 32) * 8)
            tile[index * 4 + 2] = 90
        }
        return [
            AssetRequest(path: try directory.write("art/sprite.png", PNGFixture.rgba(width: width, height: height, pixels: sprite)), name: "sprite"),
            AssetRequest(path: try directory.write("art/tile.png", PNGFixture.rgba(width: 32, height: 32, pixels: tile)), name: "tile"),
        ]
    }

    @Test(arguments: bakes) func everyLevelReadsBackAsOurDecodersDecodeIt(_ bake: Bake) async throws {
        let directory = try TemporaryDirectory()
        let report = try await PreloadCoordinator(plugins: [PNGLoader()]).preload(try Self.sources(in: directory))
        #expect(report.everythingLoaded)
        let pack = directory.file("level.bake")
        guard bake.librariesInstalled else { return }
        let summary = try BakeWriter.write(report, to: pack, textures: .init(bake: GPUTextureBake(settings: bake.settings)))
        let coordinator = try PreloadCoordinator(plugins: [BakedPackLoader()])
        let loaded = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(loaded.everythingLoaded, "\(loaded.errors)")
        let context = try GLReadback.desktop.get()
        for quality in try #require(summary.gpu).textures {
            let texture = try #require(coordinator.assets.texture(named: quality.name))
            let source = RGBAImage(try #require(report.results.first { $0.request.name == quality.name }?.outcome.asset as? Texture))
            #expect(texture.pixels.isMapped && texture.mipLevelCount == Texture.fullMipLevelCount(width: source.width, height: source.height))
            // glGetTexImage and drawing agree, but for ASTC with more than one level: Mesa 22.3's
            // llvmpipe then gives level 0 back wrong from glGetTexImage (drawing samples it
            // right, and so does glGetTexImage of a one-level ASTC texture), so ASTC is drawn.
            let isASTC = [.astc4x4, .astc5x5, .astc6x6, .astc8x8].contains(texture.pixelFormat)
            let readBack = try context.readBack(texture, method: isASTC ? .draw : .getTexImage)
            if !isASTC { #expect(try context.readBack(texture, method: .draw) == readBack, "\(quality.name): drawn as read") }
            #expect(readBack.count == texture.mipLevelCount)
            for (level, image) in zip(texture.levels, readBack) {
                let ours = try RGBAImage(decoding: texture, level: texture.levels.firstIndex(of: level)!)
                // S3TC's interpolated colours may round either way (the spec leaves it open).
                let tolerance = texture.pixelFormat == .bc1 ? 1 : 0
                let differs = zip(ours.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(differs <= tolerance, "\(quality.name) \(texture.pixelFormat) level \(level.width)x\(level.height): off by \(differs)")
            }
            let psnr = try ImageQuality.psnr(source, readBack[0], over: .premultipliedRGBA)
            #expect(abs(psnr - quality.psnr) < 0.05 || psnr == quality.psnr, "\(quality.name): the bake said \(quality.psnr), the GPU gives \(psnr)")
            // 6x6 blocks hold 36 pixels in the bytes 4x4 gives 16: they lose more.
            #expect(psnr > (texture.pixelFormat == .astc6x6 ? 25 : 30), "\(quality.name) \(texture.pixelFormat): \(psnr) dB")
        }
        let formats = Set(try #require(summary.gpu).textures.map(\.format))
        switch bake.settings.target {
        case .bc: #expect(formats == (bake.settings.opaqueFormat == .bc1 ? [.bc7, .bc1] : [.bc7]))
        case .astc: #expect(formats == [bake.settings.astcBlock])
        case .rgba8: #expect(formats == [.rgba8])
        }
    }
}
