import Foundation
import PreloadTestSupport
import Testing

/// `preload bake --gpu`: what it prints about each texture, what it refuses, what loading the pack
/// shows.
@Suite struct GPUBakeCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        var gradient = [UInt8](repeating: 255, count: 16 * 16 * 4)
        for pixel in 0..<256 {
            gradient[pixel * 4] = UInt8(pixel)
            gradient[pixel * 4 + 1] = UInt8(255 - pixel)
        }
        try directory.write("art/gradient.png", PNGFixture.rgba(width: 16, height: 16, pixels: gradient))
        try directory.write("art/noise.png", PNGFixture.rgba(width: 12, height: 7, pixels: PNGFixture.noise(width: 12, height: 7, seed: 3)))
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    @Test func theBakePrintsEachTexturesQualityAndWarnsBelowTheThreshold() async throws {
        let bake = try await preload(["bake", "art", "-o", "gpu.bake", "--gpu", "bc", "--quality", "fast", "--min-psnr", "0"])
        #expect(bake.status == 0, "\(bake.stderr)")
        let lines = bake.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  bc7") && $0.hasSuffix("art/gradient.png") && $0.contains(" dB") }, "\(bake.stdout)")
        #expect(lines.contains { $0.hasPrefix("GPU textures: 2 bc7;") }, "\(bake.stdout)")
        #expect(!bake.stdout.contains("warning:"), "nothing is below 0 dB: \(bake.stdout)")

        let json = try await preload(["gpu.bake", "--json"])
        let assets = try #require(json.json?["assets"] as? [[String: Any]])
        #expect(assets.map { $0["pixelFormat"] as? String } == ["bc7", "bc7"])
        #expect(assets.first { ($0["name"] as? String) == "art/gradient.png" }?["mipLevels"] as? Int == 5)

        // A threshold no texture meets: each is named at bake time, and --strict writes nothing.
        let warned = try await preload(["bake", "art", "-o", "warned.bake", "--gpu", "bc", "--quality", "fast", "--min-psnr", "99"])
        #expect(warned.status == 0 && warned.stdout.contains("warning: art/noise.png: gpu.low-quality"), "\(warned.stdout)")
        let strict = try await preload(["bake", "art", "-o", "strict.bake", "--gpu", "bc", "--quality", "fast", "--min-psnr", "99", "--strict"])
        #expect(strict.status == 1 && strict.stderr.contains("art/noise.png"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("strict.bake")))
    }

    @Test(arguments: [
        ["--opaque", "bc1"], ["--gpu", "astc", "--opaque", "bc1"], ["--gpu", "bc", "--astc-block", "6x6"], ["--quality", "fast"],
        ["--min-psnr", "40"], ["--mips", "--keep-16-bit"], ["--gpu", "bc", "--astc-block", "7x7"],
    ])
    func optionsThatMeanNothingTogetherAreUsageErrors(_ options: [String]) async throws {
        let bake = try await preload(["bake", "art", "-o", "never.bake"] + options)
        #expect(bake.status == 64, "\(options): \(bake.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("never.bake")))
    }
}
