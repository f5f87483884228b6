import Foundation
import Dispatch
import Preload

/// Turns decoded textures into GPU-ready ones: a mipmap chain (``MipChain``) and each level
/// encoded in a GPU block format, with the quality measured against the source. `preload bake
/// --gpu bc|astc` does this to every texture of a pack.
///
/// What each texture becomes (``Settings/target``):
/// - ``Target/bc``: BC7 (our own encoder, `BC7Encoder`), colour and alpha at 8 bits per pixel;
///   with ``Settings/opaqueFormat`` `.bc1`, a texture with no transparent pixel becomes BC1 (4
///   bits per pixel, lower quality).
/// - ``Target/astc``: ASTC at ``Settings/astcBlock`` (4 × 4 by default) through libastcenc.
/// - ``Target/rgba8``: the texture as it is, with its mipmap chain (to compare like with like).
///
/// Textures bake in parallel, the largest first; the result does not depend on how many run at
/// once.
///
/// ```swift
/// import Preload
/// import PreloadGPU
///
/// let texture = Texture(width: 8, height: 8, pixelFormat: .rgba8, alphaMode: .straight,
///                       pixels: [UInt8](repeating: 200, count: 8 * 8 * 4))
/// let baked = try GPUTextureBake(settings: .init(target: .rgba8)).bake([texture])
/// print(baked[0].texture.mipLevelCount)   // 4: 8x8, 4x4, 2x2, 1x1
/// ```
public struct GPUTextureBake: Sendable {
    /// The family of GPU formats to bake into.
    public enum Target: String, Sendable, CaseIterable {
        /// BC7 (BC1 for opaque textures on request): desktop GPUs (Direct3D, Vulkan, OpenGL with
        /// BPTC).
        case bc
        /// ASTC: mobile GPUs and Apple silicon.
        case astc
        /// Uncompressed RGBA8, with the mipmap chain only.
        case rgba8
    }

    /// What to bake into, and how.
    public struct Settings: Sendable, Hashable {
        /// The format family.
        public var target: Target
        /// How hard the encoders search.
        public var quality: EncoderQuality
        /// Whether each texture gets its full mipmap chain (the default), or level 0 alone.
        public var mipmaps: Bool
        /// The format of a texture with no transparent pixel under ``Target/bc``: `.bc7` (the
        /// default) or `.bc1` (half the size, lower quality).
        public var opaqueFormat: PixelFormat
        /// The block size under ``Target/astc``: `.astc4x4` (the default, 8 bits per pixel),
        /// `.astc5x5`, `.astc6x6` or `.astc8x8` (2 bits per pixel).
        public var astcBlock: PixelFormat

        /// Settings for `target`; the rest as documented on each property.
        public init(
            target: Target, quality: EncoderQuality = .medium, mipmaps: Bool = true, opaqueFormat: PixelFormat = .bc7,
            astcBlock: PixelFormat = .astc4x4
        ) {
            self.target = target
            self.quality = quality
            self.mipmaps = mipmaps
            self.opaqueFormat = opaqueFormat
            self.astcBlock = astcBlock
        }
    }

    /// One texture, baked.
    public struct Baked: Sendable {
        /// The GPU-ready texture: its format, its levels.
        public var texture: Texture
        /// Peak signal-to-noise ratio of level 0 against the source, over premultiplied RGBA, in
        /// dB (``ImageQuality``); `.infinity` when it is exact.
        public var psnr: Double
        /// Seconds spent encoding it (one core's time).
        public var seconds: Double

        /// A baked texture: what ``GPUTextureBake/bake(_:threads:)`` returns, or what a bake
        /// cache kept of an earlier one.
        public init(texture: Texture, psnr: Double, seconds: Double) {
            self.texture = texture
            self.psnr = psnr
            self.seconds = seconds
        }
    }

    /// What makes these encoders' bytes what they are, for a cache of their results to key on:
    /// raised whenever an encoder, the mipmap filter or the quality measure writes other bytes
    /// (and naming the system encoders' ABIs, astcenc 4.2 and stb_dxt, which the libraries'
    /// pinned file names fix).
    public static let encoderVersion = "preload-gpu 1 (BC7Encoder 1, MipChain 1, astcenc 4.2, stb_dxt libstb.so.0)"

    /// Why a texture did not bake.
    public struct BakeFailure: Error, Sendable, CustomStringConvertible {
        /// Which texture of the list given to ``bake(_:jobs:)``.
        public var position: Int
        /// The encoder's error.
        public var cause: any Error

        public var description: String { "\(cause)" }
    }

    /// The settings every texture bakes with.
    public let settings: Settings
    /// The encoders and decoders made so far, shared by every texture.
    private let codecs = BlockCodec.Codecs()

    /// A bake with `settings`.
    public init(settings: Settings) { self.settings = settings }

    /// Bakes each of `textures` in parallel (level 0 of each as RGBA8: RGBA16's high bytes, a GPU
    /// format's blocks decoded); the results are in the same order.
    /// - Throws: ``BakeFailure`` for the first texture (in list order) that failed.
    public func bake(_ textures: [Texture], jobs: Int? = nil) throws(BakeFailure) -> [Baked] {
        let results = PreloadMutex([Result<Baked, any Error>?](repeating: nil, count: textures.count))
        let workers = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        // A large texture is shared among every worker's thread (its rows of blocks), one after
        // another; the rest bake one per thread, the largest first, so that no big one starts
        // last and runs alone.
        let order = textures.indices.sorted { textures[$0].width * textures[$0].height > textures[$1].width * textures[$1].height }
        let large = order.prefix { textures[$0].width * textures[$0].height >= Self.sharedTextureSize }
        for position in large {
            let result = Result { try bake(textures[position], threads: workers) }
            results.withLock { $0[position] = result }
        }
        let small = Array(order.dropFirst(large.count))
        let next = PreloadMutex(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, small.count))) { _ in
            while true {
                let taken = next.withLock { value -> Int? in
                    guard value < small.count else { return nil }
                    value += 1
                    return small[value - 1]
                }
                guard let position = taken else { return }
                let result = Result { try bake(textures[position], threads: 1) }
                results.withLock { $0[position] = result }
            }
        }
        return try results.withLock { all throws(BakeFailure) in
            try all.enumerated().map { position, result throws(BakeFailure) in
                do { return try result!.get() } catch { throw BakeFailure(position: position, cause: error) }
            }
        }
    }

    /// Pixels from which a texture is encoded by every thread at once (512 × 512).
    static let sharedTextureSize = 1 << 18

    /// Bakes one texture, its blocks encoded by `threads` threads.
    public func bake(_ texture: Texture, threads: Int = 1) throws -> Baked {
        let started = ContinuousClock.now
        // Level 0 as RGBA8 whatever it holds: a texture already in a GPU format (from a baked pack)
        // is decoded and encoded again, from its own level 0.
        let source = try RGBAImage(decoding: texture)
        let levels = MipChain.levels(
            of: source, colorSpace: texture.colorSpace, alphaMode: texture.alphaMode, count: settings.mipmaps ? nil : 1)
        let format = format(for: source)
        let codec = try codecs.codec(
            for: BlockCodec.Key(
                format: format, quality: settings.quality, colorSpace: texture.colorSpace, alphaMode: texture.alphaMode, threads: threads))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(Texture.byteCount(width: source.width, height: source.height, pixelFormat: format, mipLevelCount: levels.count))
        var levelZero: [UInt8] = []
        for (number, level) in levels.enumerated() {
            let encoded = try codec.encode(level)
            if number == 0 { levelZero = encoded }
            pixels += encoded
        }
        // RGBA8 levels are the source's own: exact, nothing to measure.
        let psnr =
            format == .rgba8
            ? .infinity
            : try ImageQuality.psnr(
                source, try codec.decode(levelZero, width: source.width, height: source.height),
                over: texture.alphaMode == .straight ? .premultipliedRGBA : .rgba)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        return Baked(
            texture: Texture(
                width: texture.width, height: texture.height, pixelFormat: format, alphaMode: texture.alphaMode,
                colorSpace: texture.colorSpace, mipLevelCount: levels.count, pixels: AssetBytes(pixels)),
            psnr: psnr, seconds: seconds)
    }

    /// The format `image` bakes into under these settings.
    func format(for image: RGBAImage) -> PixelFormat {
        switch settings.target {
        case .rgba8: return .rgba8
        case .astc: return settings.astcBlock
        case .bc:
            guard settings.opaqueFormat != .bc7 else { return .bc7 }
            let opaque = image.pixels.withUnsafeBufferPointer { pixels in
                stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
            }
            return opaque ? settings.opaqueFormat : .bc7
        }
    }
}
