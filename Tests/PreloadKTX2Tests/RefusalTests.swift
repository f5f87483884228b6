import Preload
import PreloadGPU
import PreloadKTX2
import PreloadTestSupport
import Testing

/// Valid KTX2 files of kinds a `Texture` does not hold are refused by name, as unsupported:
/// Basis Universal, cube maps, arrays, 3D textures, zlib supercompression, other formats.
@Suite struct RefusalTests {
    @Test(arguments: [
        ("valid_R8G8B8A8_SRGB_2D_BLZE.ktx2", "BasisLZ (ETC1S) (supercompression scheme 1)"),
        ("valid_R8G8B8A8_SRGB_2D_UASTC.ktx2", "UASTC (LDR 4x4) blocks (vkFormat 0, colour model 166)"),
        ("valid_R8G8B8A8_SRGB_2D_UASTC_ZSTD_9.ktx2", "UASTC (LDR 4x4) blocks (vkFormat 0, colour model 166)"),
    ])
    func basisUniversalIsRefusedByName(_ name: String, _ what: String) throws {
        let error = try #require(throws: KTX2LoadError.self) { try KTX2Fixtures.texture(KTX2Fixtures.bytes(name)) }
        guard case .basisUniversal(let detail) = error else { Issue.record("\(error)"); return }
        #expect(detail.hasPrefix("its levels are \(what); transcode it to a GPU format first"))
        #expect(error.description.hasPrefix("Basis Universal transcoding is not supported: its levels are \(what)"))
        #expect(error.category == .unsupported)
    }

    @Test(arguments: [
        ("valid_R8G8B8A8_SRGB_CUBE.ktx2", KTX2Error.unsupportedTextureType("cube map")),
        ("valid_R8G8B8A8_SRGB_2D_ARRAY.ktx2", .unsupportedTextureType("array")),
        ("valid_R8G8B8A8_SRGB_3D.ktx2", .unsupportedTextureType("3D")),
        ("valid_R8G8B8A8_UNORM_2D_ZLIB_9.ktx2", .unsupportedSupercompression(scheme: 3)),
    ])
    func texturesATextureCannotHoldAreRefusedByName(_ name: String, _ expected: KTX2Error) throws {
        let error = try #require(throws: KTX2Error.self) { try KTX2Fixtures.texture(KTX2Fixtures.bytes(name)) }
        #expect(error == expected && error.category == .unsupported)
    }

    @Test func formatsATextureDoesNotHoldAreNamedAsVulkanNamesThem() throws {
        let rgb = try #require(throws: KTX2LoadError.self) { try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_R8G8B8_SRGB_2D.ktx2")) }
        #expect(rgb == .unsupportedFormat(vkFormat: 29, name: "R8G8B8_SRGB"))
        #expect(rgb.description.hasPrefix("KTX2 format R8G8B8_SRGB (29) is not one a Texture holds"))
        let bc1 = try #require(throws: KTX2LoadError.self) {
            try KTX2Fixtures.texture(KTX2Fixtures.bytes("output_R8G8B8A8_SRGB_2D_BLZE_to_bc1.ktx2"))
        }
        #expect(bc1 == .unsupportedFormat(vkFormat: 132, name: "BC1_RGB_SRGB_BLOCK"))
        // Each family's names, from Vulkan's numbering; numbers outside them have none.
        var file = KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D.ktx2")
        for (vkFormat, name) in [
            (23, "R8G8B8_UNORM"), (50, "B8G8R8A8_SRGB"), (97, "R16G16B16A16_SFLOAT"), (109, "R32G32B32A32_SFLOAT"),
            (143, "BC6H_UFLOAT_BLOCK"), (152, "ETC2_R8G8B8A8_SRGB_BLOCK"), (156, "EAC_R11G11_SNORM_BLOCK"), (183, "ASTC_12x12_UNORM_BLOCK"),
            (1_000_066_000, nil),
        ] as [(UInt32, String?)] {
            file.replaceSubrange(12..<16, with: withUnsafeBytes(of: vkFormat.littleEndian, Array.init))
            let error = try #require(throws: KTX2LoadError.self) { try KTX2Fixtures.texture(file) }
            #expect(error == .unsupportedFormat(vkFormat: vkFormat, name: name))
        }
    }

    /// Through a coordinator, each refusal is the file's own failure, naming the file; the
    /// other files load.
    @Test func eachRefusalFailsItsFileAloneNamingIt() async throws {
        let directory = try TemporaryDirectory("ktx2-refusals")
        let names = ["valid_R8G8B8A8_SRGB_2D_BLZE.ktx2", "valid_R8G8B8A8_SRGB_CUBE.ktx2", "valid_R8G8B8_SRGB_2D.ktx2", "valid_R8G8B8A8_SRGB_2D.ktx2"]
        for name in names { _ = try directory.write(name, KTX2Fixtures.bytes(name)) }
        let coordinator = try PreloadCoordinator(plugins: [KTX2Loader()])
        let report = try await coordinator.preload(names.map { AssetRequest(path: directory.file($0)) })
        #expect(report.loaded.count == 1 && report.failed.count == 3)
        for result in report.failed {
            let error = try #require(result.outcome.error)
            #expect(error.category == .unsupported && error.path == result.request.path)
            #expect(error.description.hasPrefix(result.request.path + ": "))
        }
        let basis = try #require(report.failed.first { $0.request.path.hasSuffix("BLZE.ktx2") }?.outcome.error)
        #expect(basis.reason.hasPrefix("Basis Universal transcoding is not supported: its levels are BasisLZ (ETC1S)"))
        #expect(basis.underlying is KTX2LoadError)
    }
}
