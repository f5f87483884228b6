import ArgumentParser
import Preload
import PreloadAuthoring
import PreloadGPU

/// `--gpu`, `--quality`, `--mips` and the rest: how `preload bake` and `preload export` turn
/// textures into GPU-ready ones (`GPUTextureBake`).
struct GPUOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Encode textures for the GPU: bc (BC7; desktop) or astc (ASTC; mobile, Apple), each with its mipmap chain; prints each one's PSNR.",
            valueName: "bc|astc"))
    var gpu: GPUTextureBake.Target?

    @Option(help: "How hard the GPU encoders search: fast, medium or thorough.")
    var quality: EncoderQuality = .medium

    @Flag(
        inversion: .prefixedNo,
        help: "Give each texture its full mipmap chain (the default with --gpu; without it, RGBA8 textures get their mipmaps).")
    var mips: Bool?

    @Option(help: ArgumentHelp("With --gpu bc: the format of textures with no transparent pixel.", valueName: "bc7|bc1"))
    var opaque: String = "bc7"

    @Option(name: .customLong("astc-block"), help: ArgumentHelp("With --gpu astc: the block size.", valueName: "4x4|5x5|6x6|8x8"))
    var astcBlock: String = "4x4"

    @Option(
        name: .customLong("min-psnr"),
        help: ArgumentHelp("With --gpu: warn of a texture whose PSNR against its source is below DB (--strict fails it).", valueName: "DB"))
    var minimumPSNR: Double = 35

    /// What the options ask of the textures; `nil`: they stay as loaded.
    func textureBaking(strict: Bool, jobs: Int?) throws -> BakeWriter.TextureBaking? {
        let opaqueFormats: [String: PixelFormat] = ["bc7": .bc7, "bc1": .bc1]
        let blocks: [String: PixelFormat] = ["4x4": .astc4x4, "5x5": .astc5x5, "6x6": .astc6x6, "8x8": .astc8x8]
        guard let opaqueFormat = opaqueFormats[opaque] else { throw ValidationError("--opaque must be bc7 or bc1, not \(opaque)") }
        guard let block = blocks[astcBlock] else { throw ValidationError("--astc-block must be 4x4, 5x5, 6x6 or 8x8, not \(astcBlock)") }
        guard minimumPSNR.isFinite, minimumPSNR >= 0 else { throw ValidationError("--min-psnr must be a number of dB, not \(minimumPSNR)") }
        guard let target = gpu ?? (mips == true ? .rgba8 : nil) else { return nil }
        let settings = GPUTextureBake.Settings(
            target: target, quality: quality, mipmaps: mips ?? true, opaqueFormat: opaqueFormat, astcBlock: block)
        return BakeWriter.TextureBaking(bake: GPUTextureBake(settings: settings), warningThreshold: minimumPSNR, isStrict: strict, jobs: jobs)
    }
}

extension GPUTextureBake.Target: ExpressibleByArgument {}
extension EncoderQuality: ExpressibleByArgument {}
