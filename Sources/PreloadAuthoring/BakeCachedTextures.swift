import Dispatch
import Foundation
import Preload
import PreloadBaked
import PreloadGPU

extension BakeWriter.TextureBaking {
    /// The bake cache key of `texture`'s GPU entry (lowercase hex): the SHA-256 of a text naming
    /// everything that determines the entry: the texture as decoded (the SHA-256 of its pixels,
    /// its size, format, alpha mode, colour space and levels), the GPU settings (target,
    /// quality, mipmaps, opaque format, ASTC block), the encoders' version
    /// (`GPUTextureBake.encoderVersion`) and the pack format's version. Keyed on the decoded
    /// pixels, not the source file, it covers a page made at load time (a packed sprite folder)
    /// and any loader setting that changes the pixels, and nothing that does not.
    /// - Throws: `MissingSystemLibrary` when libcrypto cannot be opened.
    public func cacheKey(for texture: Texture) throws(MissingSystemLibrary) -> String {
        var pixels = SHA256()
        texture.pixels.withUnsafeBytes { pixels.update(bufferPointer: $0) }
        let settings = bake.settings
        let text = """
            preload bake cache 1
            step gpuTexture
            encoder \(GPUTextureBake.encoderVersion)
            pack format \(BakedFormat.version)
            settings \(settings.target.rawValue) \(settings.quality) mipmaps=\(settings.mipmaps) opaque=\(settings.opaqueFormat) astc=\(settings.astcBlock)
            input \(texture.width)x\(texture.height) \(texture.pixelFormat) \(texture.alphaMode) \(texture.colorSpace) levels=\(texture.mipLevelCount) sha256=\(try pixels.finalize().hexString)
            """
        return try SHA256.hash(data: Array(text.utf8)).hexString
    }

    /// ``cacheKey(for:)`` of each texture, hashed in parallel.
    func cacheKeys(for textures: [Texture]) throws(MissingSystemLibrary) -> [String] {
        let keys = PreloadMutex([Result<String, MissingSystemLibrary>?](repeating: nil, count: textures.count))
        DispatchQueue.concurrentPerform(iterations: textures.count) { position in
            let key = Result { () throws(MissingSystemLibrary) in try cacheKey(for: textures[position]) }
            keys.withLock { $0[position] = key }
        }
        let results = keys.withLock { $0 }
        var all: [String] = []
        for result in results { all.append(try result!.get()) }
        return all
    }
}

/// The GPU step of a bake through a bake cache: each texture's entry taken from the cache when
/// it holds one (verified), else encoded and written to it; with a shard, only the shard's
/// missing entries are encoded, and nothing is taken.
extension BakePlan {
    /// What one distinct texture (by cache key) became: its entry, and as a baked texture for
    /// the totals and the quality warning.
    private struct Made {
        var entry: BakedEntry
        var baked: GPUTextureBake.Baked
        var encoded: Bool
    }

    /// ``bakeTextures(_:into:)`` through `cache`; with `shard`, encodes the shard's entries the
    /// cache lacks and changes no entry of the plan.
    mutating func bakeTextures(
        _ baking: BakeWriter.TextureBaking, cache: BakeCache, shard: BakeShard?, into summary: inout BakeWriter.Summary
    ) async throws {
        let (positions, sources) = textureSources
        var report = BakeCacheReport(store: cache.displayName)
        let keys: [String]
        do {
            keys = try baking.cacheKeys(for: sources.map(\.texture))
        } catch {
            report.warnings.append("bake cache \(cache.displayName): cannot key entries (\(error)); the bake goes on without it")
            summary.cache = report
            if shard == nil { try bakeTextures(baking, into: &summary) }
            return
        }
        var distinct: [String] = [], firstSource: [String: (name: String, texture: Texture)] = [:]
        for (key, source) in zip(keys, sources) where firstSource[key] == nil {
            firstSource[key] = source
            distinct.append(key)
        }
        // A shard looks up and encodes its own slice alone.
        let mine = shard?.keys(of: distinct.map { ($0, firstSource[$0]!.texture.width * firstSource[$0]!.texture.height) })
        let slice = distinct.filter { mine?.contains($0) ?? true }
        report.leftToOtherShards = distinct.count - slice.count
        var made: [String: Made] = [:]
        for (key, hit) in await Self.lookUp(slice, names: firstSource.mapValues(\.name), in: cache) {
            guard let texture = Self.texture(of: hit.entry, name: hit.record.name) else {
                cache.refuse(firstSource[key]!.name, hit.layer, "its entry does not read as a GPU texture")
                continue
            }
            made[key] = Made(entry: hit.entry, baked: .init(texture: texture, psnr: hit.record.quality ?? .infinity, seconds: 0), encoded: false)
            if hit.layer == .local { report.fromLocal += 1 } else { report.fromShared += 1 }
            report.secondsSaved += hit.record.seconds
        }
        let missing = slice.filter { made[$0] == nil }
        let started = ContinuousClock.now
        let encoded = missing.isEmpty ? [] : try baking.encode(missing.map { firstSource[$0]! })
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        for (key, result) in zip(missing, encoded) {
            let entry = result.texture.bakedAsGPUTexture(quality: result.psnr)
            let digest = try entry.bytes.withUnsafeBytes { bytes throws(MissingSystemLibrary) in try SHA256.hash(bytes: bytes) }
            await cache.store(
                entry,
                BakeCacheRecord(
                    key: key, entry: entry, cas: digest.hexString, quality: result.psnr, seconds: result.seconds, name: firstSource[key]!.name))
            made[key] = Made(entry: entry, baked: result, encoded: true)
        }
        report.encoded = missing.count
        (report.refused, report.warnings) = cache.problems
        summary.cache = report
        var totals = GPUBakeTotals()
        totals.seconds = seconds
        var counted = Set<String>()
        for (key, source) in zip(keys, sources) {
            guard let made = made[key] else { continue }
            totals.add(source.name, source.texture, made.baked, encoded: made.encoded && counted.insert(key).inserted)
        }
        summary.gpu = totals
        guard shard == nil else { return }
        try baking.checkQuality(of: totals)
        for (position, key) in zip(positions, keys) {
            let made = made[key]!
            entries[position].take(made.entry)
            if let warning = baking.warning(for: made.baked) { entries[position].warnings.append(warning) }
        }
    }

    /// The verified entries `cache` holds for `keys`, looked up a few at a time (a shared store
    /// answers over the network).
    private static func lookUp(_ keys: [String], names: [String: String], in cache: BakeCache) async -> [String: BakeCache.Hit] {
        await withTaskGroup(of: (String, BakeCache.Hit?).self) { group in
            var found: [String: BakeCache.Hit] = [:]
            var next = 0
            func start() {
                guard next < keys.count else { return }
                let key = keys[next], name = names[key] ?? key
                next += 1
                group.addTask { (key, await cache.lookup(key, name: name)) }
            }
            for _ in 0..<8 { start() }
            for await (key, hit) in group {
                if let hit { found[key] = hit }
                start()
            }
            return found
        }
    }

    /// The texture a cached GPU entry holds (a view of its bytes), or `nil` when it does not
    /// read as one.
    private static func texture(of entry: BakedEntry, name: String) -> Texture? {
        let contents = BakedEntryContents(
            name: name, path: name, kind: entry.kind ?? Texture.bakedKind, bytes: entry.bytes, width: entry.width, height: entry.height,
            kindBits: entry.kindBits, source: CachedEntrySource())
        return (try? Texture.unbaked(from: contents)) as? Texture
    }
}

/// What a cached entry has of a pack: nothing but its bytes (a GPU texture names no pages).
private struct CachedEntrySource: BakedEntrySource {
    func page(_ entry: Int, path: String) throws -> Texture { throw BakeCacheRecordProblem("a cached entry has no pages") }
    func malformed(_ why: String) -> any Error { BakeCacheRecordProblem(why) }
    func warn(_ warning: AssetWarning) throws {}
}
