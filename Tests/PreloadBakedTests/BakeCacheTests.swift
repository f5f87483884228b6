import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadConcurrency
import PreloadGPU
import PreloadTestSupport
import Testing

/// The bake cache through the library: a store that fails is warned of once and left alone, a
/// shared hit fills the local store, a record stored under another key is refused, and the keys
/// and shards split the textures as documented (balanced by cost, whatever the order).
@Suite struct BakeCacheTests {
    let directory: TemporaryDirectory
    let report: PreloadReport
    let baking = BakeWriter.TextureBaking(bake: GPUTextureBake(settings: .init(target: .bc, quality: .fast)))

    init() async throws {
        directory = try TemporaryDirectory()
        _ = try await BakedFixtures.smallPack(in: directory)
        report = try await BakedFixtures.coordinator().preload(
            BakedFixtures.smallPackSources(in: directory), options: PreloadOptions(storesAssets: false))
    }

    /// The pack baked without a cache: what every cached bake must equal, byte for byte.
    func uncached() throws -> [UInt8] {
        let path = directory.file("uncached.bake")
        try BakeWriter.write(report, to: path, textures: baking)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func bake(_ cache: BakeCache, _ name: String) async throws -> (summary: BakeWriter.Summary, bytes: [UInt8]) {
        let summary = try await BakeWriter.write(report, to: directory.file(name), textures: baking, cache: cache)
        return (summary, [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))))
    }

    @Test func aStoreThatFailsIsWarnedOfOnceAndLeftAlone() async throws {
        let store = FailingStore()
        let (summary, bytes) = try await bake(BakeCache(local: store), "failing.bake")
        let cache = try #require(summary.cache)
        let textures = try #require(summary.gpu?.textures.count)
        #expect(textures > 1, "the test needs several textures to show one warning for all")
        #expect(cache.warnings.count == 1 && cache.warnings[0].contains("failing-store"), "\(cache.warnings)")
        #expect(cache.encoded > 1 && cache.fromCache == 0)
        // Lookups run a few at a time (8): those already under way when the first failed may
        // fail too; nothing after them asks the store again, and nothing is written to it.
        let (reads, writes) = store.calls.withLock { ($0.reads, $0.writes) }
        #expect(reads >= 1 && reads <= 8, "\(reads) reads of \(textures) textures")
        #expect(writes == 0, "a store that failed is not written to")
        let uncached = try uncached()
        #expect(bytes == uncached)
    }

    @Test func aSharedHitFillsTheLocalStoreAndARecordUnderAnotherKeyIsRefused() async throws {
        let shared = LocalBakeCache(folder: directory.file("shared"))
        let cold = try await bake(BakeCache(local: shared), "cold.bake")
        let encoded = try #require(cold.summary.cache?.encoded)
        let uncached = try uncached()
        #expect(encoded > 1 && cold.bytes == uncached)

        let local = LocalBakeCache(folder: directory.file("local"))
        let second = try await bake(BakeCache(local: local, shared: shared), "second.bake")
        #expect(second.summary.cache?.fromShared == encoded && second.summary.cache?.encoded == 0)
        #expect(second.bytes == cold.bytes)
        let third = try await bake(BakeCache(local: local), "third.bake")
        #expect(third.summary.cache?.fromLocal == encoded, "the shared hits were written to the local store")

        // One record copied over another: it answers another key, so it is refused by name.
        let records = try FileManager.default.contentsOfDirectory(atPath: directory.file("local/ac")).sorted()
        try FileManager.default.removeItem(atPath: directory.file("local/ac/\(records[1])"))
        try FileManager.default.copyItem(atPath: directory.file("local/ac/\(records[0])"), toPath: directory.file("local/ac/\(records[1])"))
        let poisoned = try await bake(BakeCache(local: local), "poisoned.bake")
        let refused = try #require(poisoned.summary.cache?.refused)
        #expect(refused.count == 1 && refused[0].contains("answers another key"), "\(refused)")
        #expect(poisoned.summary.cache?.encoded == 1 && poisoned.bytes == cold.bytes)
        let again = try await bake(BakeCache(local: local), "again.bake")
        #expect(again.summary.cache?.refused == [] && again.summary.cache?.encoded == 0, "the refused record was replaced")
    }

    @Test func keysFollowThePixelsAndTheSettingsAndShardsSplitThemOnce() throws {
        let gradient = (0..<64 * 4).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let texture = Texture(width: 8, height: 8, pixelFormat: .rgba8, alphaMode: .straight, pixels: gradient)
        let same = Texture(width: 8, height: 8, pixelFormat: .rgba8, alphaMode: .straight, pixels: gradient)
        var changed = gradient
        changed[5] ^= 1
        let other = Texture(width: 8, height: 8, pixelFormat: .rgba8, alphaMode: .straight, pixels: changed)
        let key = try baking.cacheKey(for: texture)
        let sameKey = try baking.cacheKey(for: same), otherKey = try baking.cacheKey(for: other)
        #expect(key.count == 64 && key == sameKey)
        #expect(key != otherKey)
        let astc = BakeWriter.TextureBaking(bake: GPUTextureBake(settings: .init(target: .astc, quality: .fast)))
        let thorough = BakeWriter.TextureBaking(bake: GPUTextureBake(settings: .init(target: .bc, quality: .thorough)))
        let keysBySettings = [key, try astc.cacheKey(for: texture), try thorough.cacheKey(for: texture)]
        #expect(Set(keysBySettings).count == 3)
        let lenient = BakeWriter.TextureBaking(bake: baking.bake, warningThreshold: 10, isStrict: true, jobs: 1)
        let lenientKey = try lenient.cacheKey(for: texture)
        #expect(lenientKey == key, "the threshold and the jobs do not change the entry")

        #expect(BakeShard("0/4") == nil && BakeShard("5/4") == nil && BakeShard("2") == nil && BakeShard("1/0") == nil)
        let shards = (1...4).map { BakeShard(index: $0, count: 4)! }
        #expect(shards[1] == BakeShard("2/4") && "\(shards[1])" == "2/4")
        var entries: [(key: String, cost: Int)] = []
        for seed in 0..<64 {
            var pixels = gradient
            pixels[0] = UInt8(seed)
            let key = try baking.cacheKey(for: Texture(width: 8, height: 8, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels))
            entries.append((key, seed < 4 ? 1000 : seed))  // four large pages among small sprites
        }
        let slices = shards.map { $0.keys(of: entries) }
        for entry in entries { #expect(slices.filter { $0.contains(entry.key) }.count == 1, "every entry is one shard's") }
        for (shard, slice) in zip(shards, slices) {
            #expect(slice.filter { key in entries.first { $0.key == key }!.cost == 1000 }.count == 1, "one large page each")
            #expect(shard.keys(of: entries.reversed()) == slice, "the split does not depend on the order")
        }
        let costs = slices.map { slice in entries.filter { slice.contains($0.key) }.reduce(0) { $0 + $1.cost } }
        #expect(costs.max()! - costs.min()! <= 60, "balanced: \(costs)")
    }
}

/// A store that is down: every call throws, and is counted.
private final class FailingStore: BakeCacheStore {
    let calls = PreloadMutex((reads: 0, writes: 0))
    var displayName: String { "failing-store" }
    func read(_ area: BakeCacheArea, _ key: String) async throws -> [UInt8]? {
        calls.withLock { $0.reads += 1 }
        throw failure
    }
    func write(_ area: BakeCacheArea, _ key: String, _ bytes: [UInt8]) async throws {
        calls.withLock { $0.writes += 1 }
        throw failure
    }
    func contains(_ area: BakeCacheArea, _ key: String) async throws -> Bool {
        calls.withLock { $0.reads += 1 }
        throw failure
    }
    private var failure: BakeCacheError { BakeCacheError(location: displayName, reason: "connection refused") }
}
