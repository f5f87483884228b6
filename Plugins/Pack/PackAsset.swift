import Preload

/// A loaded pack: its format and every entry it lists, each with what became of it. Entries that
/// loaded are also in the coordinator's `AssetStore` under their own path, `PACK#ENTRY`. A pack
/// is a `ContainerAsset`: a bake stores its entries, each under its own name, and not it.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadPack
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), PackLoader(), DataFileLoader.json])
/// _ = try await coordinator.preload(["game.pak"])
/// if let pack = coordinator.assets.asset(named: "game.pak", as: PackAsset.self) {
///     for entry in pack.entries where entry.outcome.error != nil { print(entry.outcome.error!) }
///     let level = pack.entry(named: "levels/1.json")?.asset as? DataAsset
///     print(level?.bytes.count ?? 0)
/// }
/// ```
public struct PackAsset: ContainerAsset {
    /// One entry and its outcome.
    public struct Entry: Sendable {
        /// The name inside the pack (`/` separators).
        public let name: String
        /// How it is requested and stored: `PACK#ENTRY`.
        public let path: String
        /// Its size in the pack (compressed, for a compressed entry).
        public let storedSize: UInt64
        /// Its size once inflated: as declared, or as read for a gzip entry; `nil` if unknown.
        public let rawSize: UInt64?
        /// How the entry is stored (stored or deflated).
        public let method: PackIndex.Method
        /// Whether the entry loaded (as raw data or through the plugin that claims it), failed or was cancelled.
        public let outcome: AssetOutcome

        /// The asset it loaded as (a `Texture`, a `DataAsset`, ...), if it loaded.
        public var asset: (any Asset)? { outcome.asset }
    }

    /// The pack's path, as requested.
    public let path: String
    /// The pack's container format.
    public let format: PackIndex.Format
    /// Every entry, in the pack's order.
    public let entries: [Entry]
    /// The loader that read the pack, which reads an entry's raw bytes again (its index cached);
    /// a fresh one for a pack made in code.
    let reader: PackLoader?

    /// A pack at `path` with `entries`.
    public init(path: String, format: PackIndex.Format, entries: [Entry]) {
        self.init(path: path, format: format, entries: entries, reader: nil)
    }

    /// A pack at `path` with `entries`, whose raw bytes `reader` reads again.
    init(path: String, format: PackIndex.Format, entries: [Entry], reader: PackLoader?) {
        self.path = path
        self.format = format
        self.entries = entries
        self.reader = reader
    }

    public var kind: AssetKind { .pack }

    /// What the loaded entries hold (the pack keeps them alive).
    public var byteCount: Int { entries.reduce(0) { $0 + ($1.asset?.byteCount ?? 0) } }

    /// The entry named `name`.
    public func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// Why entries failed, in the pack's order.
    public var errors: [AssetError] { entries.compactMap(\.outcome.error) }
}

extension PackAsset {
    /// The pack at `request`'s path, once its entries (the requests `loader` declared for them)
    /// have loaded: each entry with its outcome.
    static func gathering(_ request: PlannedRequest, loader: PackLoader, context: LoadContext) throws -> PackAsset {
        let index = try loader.index(of: request.path)
        var seen = Set<String>()
        let entries = index.entries.map { entry in
            let entryRequest = loader.entryRequest(pack: request.path, entry: entry.name)
            let outcome: AssetOutcome
            if seen.insert(entry.name).inserted {
                outcome =
                    context.outcome(of: entryRequest)
                    ?? .failed(AssetError(path: entryRequest.path, category: .other, reason: "was not loaded (did the pack change while loading?)"))
            } else {
                let problem = entry.problem ?? PackError.corruptIndex("'\(entry.name)' is listed more than once")
                outcome = .failed(AssetError(path: entryRequest.path, wrapping: problem))
            }
            let read = (outcome.asset as? DataAsset).map { UInt64($0.bytes.count) }
            return Entry(
                name: entry.name, path: entryRequest.path, storedSize: entry.storedSize, rawSize: entry.rawSize ?? read,
                method: entry.method, outcome: outcome)
        }
        return PackAsset(path: request.path, format: index.format, entries: entries, reader: loader)
    }
}
