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

    @Option(help: "How hard the GPU encoders search: fast, medium (the default) or thorough.")
    var quality: EncoderQuality?

    @Flag(
        inversion: .prefixedNo,
        help: "Give each texture its full mipmap chain (the default with --gpu; without it, RGBA8 textures get their mipmaps).")
    var mips: Bool?

    @Option(help: ArgumentHelp("With --gpu bc: the format of textures with no transparent pixel (default bc7).", valueName: "bc7|bc1"))
    var opaque: String?

    @Option(
        name: .customLong("astc-block"), help: ArgumentHelp("With --gpu astc: the block size (default 4x4).", valueName: "4x4|5x5|6x6|8x8"))
    var astcBlock: String?

    @Option(
        name: .customLong("min-psnr"),
        help: ArgumentHelp(
            "With --gpu: warn of a texture whose PSNR against its source is below DB (default 35; --strict fails it).", valueName: "DB"))
    var minimumPSNR: Double?

    /// What the options ask of the textures; `nil`: they stay as loaded. Throws a
    /// `ValidationError` for an option that means nothing with the others (`--opaque` without
    /// `--gpu bc`, `--astc-block` without `--gpu astc`, `--mips` with `--keep-16-bit`...).
    func textureBaking(strict: Bool, jobs: Int?, keepsSixteenBit: Bool = false) throws -> BakeWriter.TextureBaking? {
        let opaqueFormats: [String: PixelFormat] = ["bc7": .bc7, "bc1": .bc1]
        let blocks: [String: PixelFormat] = ["4x4": .astc4x4, "5x5": .astc5x5, "6x6": .astc6x6, "8x8": .astc8x8]
        if let opaque, opaqueFormats[opaque] == nil { throw ValidationError("--opaque must be bc7 or bc1, not \(opaque)") }
        if let astcBlock, blocks[astcBlock] == nil { throw ValidationError("--astc-block must be 4x4, 5x5, 6x6 or 8x8, not \(astcBlock)") }
        if let minimumPSNR, !(minimumPSNR.isFinite && minimumPSNR >= 0) {
            throw ValidationError("--min-psnr must be a number of dB, not \(minimumPSNR)")
        }
        if opaque != nil, gpu != .bc { throw ValidationError("--opaque chooses a BC format: it needs --gpu bc") }
        if astcBlock != nil, gpu != .astc { throw ValidationError("--astc-block chooses an ASTC block size: it needs --gpu astc") }
        if gpu == nil {
            if quality != nil { throw ValidationError("--quality is how hard the GPU encoders search: it needs --gpu bc or --gpu astc") }
            if minimumPSNR != nil { throw ValidationError("--min-psnr measures GPU encoding: it needs --gpu bc or --gpu astc") }
        }
        guard let target = gpu ?? (mips == true ? .rgba8 : nil) else { return nil }
        if keepsSixteenBit {
            throw ValidationError("--keep-16-bit keeps RGBA16, and mipmap chains and GPU formats are 8-bit: give one or the other")
        }
        if gpu == nil, mips == false { return nil }
        let settings = GPUTextureBake.Settings(
            target: target, quality: quality ?? .medium, mipmaps: mips ?? true, opaqueFormat: opaqueFormats[opaque ?? "bc7"]!,
            astcBlock: blocks[astcBlock ?? "4x4"]!)
        return BakeWriter.TextureBaking(
            bake: GPUTextureBake(settings: settings), warningThreshold: minimumPSNR ?? 35, isStrict: strict, jobs: jobs)
    }
}

extension GPUTextureBake.Target: ExpressibleByArgument {}
extension EncoderQuality: ExpressibleByArgument {}
