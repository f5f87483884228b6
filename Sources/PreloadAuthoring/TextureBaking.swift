import Foundation
import Preload
import PreloadGPU

extension BakeWriter {
    /// How `preload bake --gpu` (and `preload export --gpu`) turns each texture into a GPU-ready
    /// one (`GPUTextureBake`), and what it does about a texture that lost too much on the way.
    public struct TextureBaking: Sendable {
        /// The format and mipmap settings.
        public var bake: GPUTextureBake
        /// A texture whose PSNR (dB, level 0 against its source, premultiplied RGBA) is below it
        /// gets a `gpu.low-quality` warning, kept in the pack and reported when it loads.
        public var warningThreshold: Double
        /// Whether such a texture fails the bake (nothing is written), as `--strict` asks.
        public var isStrict: Bool
        /// Textures encoded at once (default: the number of cores).
        public var jobs: Int?

        /// Baking with `bake`, warning below `warningThreshold` dB.
        public init(bake: GPUTextureBake, warningThreshold: Double = 35, isStrict: Bool = false, jobs: Int? = nil) {
            self.bake = bake
            self.warningThreshold = warningThreshold
            self.isStrict = isStrict
            self.jobs = jobs
        }

        /// Bakes each of `textures` (in parallel); returns them baked, in the same order, and the
        /// totals. Throws ``BakeError/gpuEncodingFailed(name:cause:)`` naming the first texture
        /// that did not encode, and, strict, ``BakeError/belowQuality(_:threshold:)``.
        public func apply(to textures: [(name: String, texture: Texture)]) throws -> (baked: [GPUTextureBake.Baked], totals: GPUBakeTotals) {
            let started = ContinuousClock.now
            let baked = try encode(textures)
            var totals = GPUBakeTotals()
            totals.seconds = (ContinuousClock.now - started) / .seconds(1)
            for ((name, source), result) in zip(textures, baked) { totals.add(name, source, result, encoded: true) }
            try checkQuality(of: totals)
            return (baked, totals)
        }

        /// Encodes each of `textures` in parallel, in the same order; throws
        /// ``BakeError/gpuEncodingFailed(name:cause:)`` naming the first that did not encode.
        func encode(_ textures: [(name: String, texture: Texture)]) throws(BakeError) -> [GPUTextureBake.Baked] {
            do {
                return try bake.bake(textures.map(\.texture), jobs: jobs)
            } catch {
                throw BakeError.gpuEncodingFailed(name: textures[error.position].name, cause: "\(error.cause)")
            }
        }

        /// Strict, throws ``BakeError/belowQuality(_:threshold:)`` for the textures of `totals`
        /// below the threshold.
        func checkQuality(of totals: GPUBakeTotals) throws(BakeError) {
            let low = totals.textures.filter { $0.psnr < warningThreshold }
            if isStrict, !low.isEmpty { throw BakeError.belowQuality(low, threshold: warningThreshold) }
        }

        /// The `gpu.low-quality` warning for `baked`, if its PSNR is below the threshold.
        public func warning(for baked: GPUTextureBake.Baked) -> AssetWarning? {
            guard baked.psnr < warningThreshold else { return nil }
            return AssetWarning(
                "gpu.low-quality",
                "\(baked.texture.pixelFormat) keeps it at \(GPUTextureQuality.decibels(baked.psnr)) PSNR, below \(GPUTextureQuality.decibels(warningThreshold))"
            )
        }
    }
}

/// What a GPU bake did to a set of textures: each one's format and quality, sizes before and
/// after, and how fast it went.
public struct GPUBakeTotals: Sendable {
    /// Each texture's format and quality, in order.
    public var textures: [GPUTextureQuality] = []
    /// Bytes the textures took as loaded (level 0, RGBA8) and as baked (every level, in their GPU
    /// formats).
    public var bytesBefore = 0, bytesAfter = 0
    /// Bytes the same levels take in RGBA8: what ``bytesAfter`` compares with.
    public var rgba8Bytes = 0
    /// Seconds encoding took (wall time, every core together) and megapixels encoded (every
    /// level; none for a texture a bake cache gave).
    public var seconds = 0.0, megapixels = 0.0

    /// The mean PSNR over textures that are not exact (`.infinity` when all are).
    public var meanPSNR: Double {
        let finite = textures.map(\.psnr).filter(\.isFinite)
        return finite.isEmpty ? .infinity : finite.reduce(0, +) / Double(finite.count)
    }

    /// The texture that lost the most.
    public var worst: GPUTextureQuality? { textures.min { $0.psnr < $1.psnr } }

    /// Counts `baked`, the texture `name` (`source` as loaded); its megapixels only if this bake
    /// `encoded` it (not a bake cache).
    mutating func add(_ name: String, _ source: Texture, _ baked: GPUTextureBake.Baked, encoded: Bool) {
        textures.append(GPUTextureQuality(name: name, format: baked.texture.pixelFormat, psnr: baked.psnr))
        bytesBefore += source.width * source.height * 4
        bytesAfter += baked.texture.byteCount
        rgba8Bytes += baked.texture.levels.reduce(0) { $0 + $1.width * $1.height * 4 }
        if encoded { megapixels += Double(baked.texture.levels.reduce(0) { $0 + $1.width * $1.height }) / 1e6 }
    }
}

/// A texture's GPU format and how close it stayed to its source, as `preload bake --gpu` reports it.
public struct GPUTextureQuality: Sendable, Hashable {
    /// The entry's name.
    public var name: String
    /// The format it was baked into.
    public var format: PixelFormat
    /// PSNR of level 0 against the source, over premultiplied RGBA (dB; `.infinity` when exact).
    public var psnr: Double

    /// `47.3 dB`, or `exact`.
    public static func decibels(_ value: Double) -> String { value.isFinite ? String(format: "%.1f dB", value) : "exact" }
}

/// The texture kind's GPU step of a bake: every texture entry stored as rows (`texture`) encoded
/// into its GPU form (`gpuTexture`). It stays here, beside the writer, because it runs over the
/// whole pack at once (textures encoded in parallel, one set of totals and one strict threshold
/// for the bake), which no single asset's `BakeableAsset.baked(pageEntries:)` sees.
extension BakePlan {
    /// Turns every texture entry into a GPU texture entry as `baking` says, noting each one's
    /// format and quality in `summary`; warns of (or, strict, fails on) low quality.
    mutating func bakeTextures(_ baking: BakeWriter.TextureBaking, into summary: inout BakeWriter.Summary) throws {
        let (positions, sources) = textureSources
        let (baked, totals) = try baking.apply(to: sources)
        summary.gpu = totals
        for (position, result) in zip(positions, baked) {
            entries[position].take(result.texture.bakedAsGPUTexture(quality: result.psnr))
            if let warning = baking.warning(for: result) { entries[position].warnings.append(warning) }
        }
    }

    /// The texture entries stored as rows (their positions), and each one's name and texture.
    var textureSources: (positions: [Int], sources: [(name: String, texture: Texture)]) {
        let positions = entries.indices.filter { entries[$0].kind == Texture.bakedKind && entries[$0].asset is Texture }
        return (positions, positions.map { (entries[$0].name, entries[$0].asset as! Texture) })
    }
}
