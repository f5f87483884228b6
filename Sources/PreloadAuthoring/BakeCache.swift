import Preload

/// A bake cache: the entries a bake's slow step made (GPU-encoded textures), kept under a key
/// of everything that determines them, so that the next bake (this machine's, a CI run's,
/// another developer's) takes them instead of making them again. `preload bake --gpu` keeps
/// one by default (docs/bake-format.md, "The bake cache").
///
/// A local store in front of an optional shared one: a local hit is used; a shared hit is used
/// and written to the local store; a miss is made and written to both. Everything read is
/// verified before use: the action record must answer its key, and the content must hash to
/// the SHA-256 it is stored under; an entry that does not is refused (named in
/// ``BakeCacheReport/refused``), made again and replaced. Writes are best effort: a store that
/// fails (down, full, read-only) gets one warning (``BakeCacheReport/warnings``) and is left
/// alone for the rest of the run; it never fails a bake.
///
/// ```swift
/// import Preload
/// import PreloadAuthoring
/// import PreloadGPU
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let report = try await coordinator.preload([.folder("assets")])
/// let baking = BakeWriter.TextureBaking(bake: GPUTextureBake(settings: .init(target: .bc)))
/// let cache = BakeCache(local: LocalBakeCache(folder: "/tmp/bake-cache"))
/// let summary = try await BakeWriter.write(report, to: "level1.bake", textures: baking, cache: cache)
/// print(summary.cache?.encoded ?? 0)   // 0 the second time
/// ```
public final class BakeCache: Sendable {
    /// Which store an entry came from.
    public enum Layer: String, Sendable {
        /// The local store (this machine's folder).
        case local
        /// The shared store behind it.
        case shared
    }

    /// An entry found, verified.
    struct Hit: Sendable {
        var entry: BakedEntry
        var record: BakeCacheRecord
        var layer: Layer
    }

    /// The store read first and written to.
    public let local: (any BakeCacheStore)?
    /// The store behind it, if any.
    public let shared: (any BakeCacheStore)?
    private let state = PreloadMutex(State())

    private struct State {
        var failed: Set<Layer> = []
        var refused: [String] = []
        var warnings: [String] = []
    }

    /// A cache reading `local` first, then `shared`.
    public init(local: (any BakeCacheStore)?, shared: (any BakeCacheStore)? = nil) {
        self.local = local
        self.shared = shared
    }

    /// `DIR`, or `DIR in front of URL`.
    public var displayName: String { [local, shared].compactMap { $0?.displayName }.joined(separator: " in front of ") }

    /// The entries refused so far (each `NAME: STORE: why`) and the warnings about stores.
    var problems: (refused: [String], warnings: [String]) { state.withLock { ($0.refused, $0.warnings) } }

    /// The verified entry under `key` (made for `name`: the output names it if refused), from
    /// the local store, else the shared one (then written to the local store too).
    func lookup(_ key: String, name: String) async -> Hit? {
        for layer in [Layer.local, .shared] {
            guard let store = usable(layer) else { continue }
            guard let (entry, record) = await read(key, from: store, layer: layer, name: name) else { continue }
            if layer == .shared { await write(entry, record, to: [.local]) }
            return Hit(entry: entry, record: record, layer: layer)
        }
        return nil
    }

    /// Writes `entry` (made for `record.name` under `record.key`) to every store still in use:
    /// its content first, so that a record never names content that is not there.
    func store(_ entry: BakedEntry, _ record: BakeCacheRecord) async {
        await write(entry, record, to: [.local, .shared])
    }

    private func write(_ entry: BakedEntry, _ record: BakeCacheRecord, to layers: [Layer]) async {
        let bytes = entry.bytes.array
        for layer in layers {
            guard let store = usable(layer) else { continue }
            do {
                try await store.write(.cas, record.cas, bytes)
                try await store.write(.ac, record.key, record.encoded())
            } catch {
                fail(layer, store, "cannot write (\(error)); the bake goes on without storing in it")
            }
        }
    }

    /// The entry `store` holds under `key`, verified; `nil` when it has none, cannot be read
    /// (warned once) or holds one that does not verify (refused, named).
    private func read(_ key: String, from store: any BakeCacheStore, layer: Layer, name: String) async -> (BakedEntry, BakeCacheRecord)? {
        do {
            guard let recordBytes = try await store.read(.ac, key) else { return nil }
            let record: BakeCacheRecord
            switch BakeCacheRecord.decoded(recordBytes, key: key) {
            case .success(let read): record = read
            case .failure(let problem):
                refuse(name, store, problem.reason)
                return nil
            }
            guard let content = try await store.read(.cas, record.cas) else { return nil }  // pruned: a miss
            let digest = try content.withUnsafeBytes { bytes throws(MissingSystemLibrary) in try SHA256.hash(bytes: bytes) }
            guard content.count == record.size, digest.hexString == record.cas else {
                refuse(name, store, "its bytes do not match their SHA-256 (cas/\(record.cas))")
                return nil
            }
            return (record.entry(bytes: content), record)
        } catch {
            fail(layer, store, "cannot read (\(error)); the bake goes on without it")
            return nil
        }
    }

    private func usable(_ layer: Layer) -> (any BakeCacheStore)? {
        guard let store = layer == .local ? local : shared else { return nil }
        return state.withLock { $0.failed.contains(layer) } ? nil : store
    }

    /// Notes that the entry made for `name` that `layer`'s store gave was refused, saying `why`
    /// (it will be made again and replaced).
    func refuse(_ name: String, _ layer: Layer, _ why: String) {
        guard let store = layer == .local ? local : shared else { return }
        refuse(name, store, why)
    }

    private func refuse(_ name: String, _ store: any BakeCacheStore, _ why: String) {
        state.withLock { $0.refused.append("\(name): \(store.displayName): \(why); refused, baked again and replaced") }
    }

    private func fail(_ layer: Layer, _ store: any BakeCacheStore, _ why: String) {
        state.withLock {
            guard $0.failed.insert(layer).inserted else { return }
            $0.warnings.append("bake cache \(store.displayName): \(why)")
        }
    }
}
