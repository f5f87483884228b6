/// A batch's results, one per request, in report order: the caller's requests as given, each
/// followed by the dependencies plugins declared for it.
///
/// A collection of ``AssetResult`` made on access from what the batch recorded, so that
/// completing a batch of 20,000 files does not build (and hold twice) 20,000 results while every
/// worker waits; reading them costs what building them would have. Also made from an array.
public struct AssetResults: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case array([AssetResult])
        case batch(Recorded)
    }

    /// What a finished batch recorded, moved out of its state: by entry, its request, its asset
    /// and why it failed if it made none; by asset, the records (``AssetRecords``).
    struct Recorded: Sendable {
        /// Which batch recorded it (``BatchState/number``).
        let batch: UInt64
        let callers: CallerRequests
        let dependencyRequests: [AssetRequest]
        let assetOfEntry: [Int32]
        let failures: [Int: AssetError]
        let records: AssetRecords
        /// The entry at each position, when dependencies make report order differ from entry order.
        let order: [Int]?
        /// The caller's entries folded into a loaded asset that depends on them (a walked atlas
        /// page): not the caller's results, listed as that asset's dependencies only.
        var folded: Set<Int> = []

        func result(at position: Int) -> AssetResult {
            Self.result(
                ofEntry: order?[position] ?? position, batch: batch, callers: callers, dependencyRequests: dependencyRequests,
                assetOfEntry: assetOfEntry, failures: failures, records: records)
        }

        /// The asset of the entry at `position`; -1 for none.
        func asset(at position: Int) -> Int { Int(assetOfEntry[order?[position] ?? position]) }

        /// How the result at `position` ended, without making it.
        func outcomeKind(at position: Int) -> OutcomeKind {
            let entry = order?[position] ?? position
            if !failures.isEmpty, failures[entry] != nil { return .failed }
            let asset = Int(assetOfEntry[entry])
            guard asset >= 0 else { return .cancelled }
            switch records.status(of: asset) {
            case .loaded: return .loaded
            case .failed: return .failed
            case .cancelled, .open: return .cancelled
            }
        }

        enum OutcomeKind { case loaded, failed, cancelled }

        /// The result of `entry`, from the batch's records; no outcome means cancelled.
        static func result(
            ofEntry entry: Int, batch: UInt64, callers: CallerRequests, dependencyRequests: [AssetRequest], assetOfEntry: [Int32],
            failures: [Int: AssetError], records: AssetRecords
        ) -> AssetResult {
            let request: AssetRequest
            if entry >= callers.count {
                request = dependencyRequests[entry - callers.count]
            } else if let given = callers.givenIndex(of: entry) {
                request = callers.given[given]  // read in place
            } else {
                request = callers[entry]  // an entry a bulk plugin listed: made now
            }
            let asset = Int(assetOfEntry[entry])
            if !failures.isEmpty, let failure = failures[entry] {
                return AssetResult(
                    request: request, plugin: asset < 0 ? nil : records.plugin(of: asset), isDependency: entry >= callers.count,
                    outcome: .failed(failure), duration: asset < 0 ? .zero : records.duration(of: asset), assetIndex: asset < 0 ? nil : asset,
                    batch: batch, progressWeight: asset < 0 ? 0 : records.weight(of: asset))
            }
            guard asset >= 0 else {
                return AssetResult(
                    request: request, plugin: nil, isDependency: entry >= callers.count, outcome: .cancelled, duration: .zero, assetIndex: nil,
                    batch: batch)
            }
            return AssetResult(
                request: request, plugin: records.plugin(of: asset), isDependency: entry >= callers.count,
                outcome: records.outcome(of: asset) ?? .cancelled, duration: records.duration(of: asset), assetIndex: asset,
                warnings: records.warnings(of: asset), batch: batch, progressWeight: records.weight(of: asset))
        }
    }

    private let storage: Storage

    /// The batch these results were recorded by (``BatchState/number``); `nil` for results made
    /// from an array.
    var batch: UInt64? {
        guard case .batch(let recorded) = storage else { return nil }
        return recorded.batch
    }
    /// How many results there are: all, or (for ``callersOnly``) the caller's.
    private let callerCount: Int?

    /// The results in `array`, in that order.
    package init(_ array: [AssetResult]) {
        storage = .array(array)
        callerCount = nil
    }

    init(_ recorded: Recorded) {
        storage = .batch(recorded)
        callerCount = nil
    }

    private init(callersOf recorded: Recorded) {
        // Caller entries come first in entry order: without report order, the first ones (those
        // not folded into an asset that depends on them).
        let order = recorded.folded.isEmpty ? nil : recorded.callers.indices.filter { !recorded.folded.contains($0) }
        storage = .batch(
            Recorded(
                batch: recorded.batch,
                callers: recorded.callers, dependencyRequests: recorded.dependencyRequests, assetOfEntry: recorded.assetOfEntry,
                failures: recorded.failures, records: recorded.records, order: order))
        callerCount = order?.count ?? recorded.callers.count
    }

    /// The results of the caller's requests only, in the order given.
    var callersOnly: AssetResults {
        switch storage {
        case .array(let array): AssetResults(array.filter { !$0.isDependency })
        case .batch(let recorded): recorded.dependencyRequests.isEmpty && callerCount == nil ? self : AssetResults(callersOf: recorded)
        }
    }

    /// Whether any result carries a warning, read from the batch's records without making a
    /// result per entry.
    var hasWarnings: Bool {
        switch storage {
        case .array(let array): return array.contains { !$0.warnings.isEmpty }
        case .batch(let recorded):
            return recorded.records.hasWarnings
        }
    }

    /// The bytes the distinct loaded assets of these results decoded into (an asset released
    /// after its hand-over counts what it held), read from the batch's records when it can be:
    /// no result is made per entry. A texture two assets hold (an atlas's page, loaded as a
    /// texture of its own too) counts once.
    var decodedBytes: Int {
        var memory = CountedMemory()
        switch storage {
        case .array(let array):
            memory.sharesTextures = true
            var counted: [Bool] = []
            for result in array {
                guard case .loaded(let asset) = result.outcome else { continue }
                if let shared = result.assetIndex {
                    if shared >= counted.count { counted += repeatElement(false, count: Swift.max(shared + 1 - counted.count, counted.count)) }
                    if counted[shared] { continue }
                    counted[shared] = true
                }
                memory.count(asset)
            }
        case .batch(let recorded):
            // Only an asset with dependencies can hold another's texture (an atlas, its pages):
            // without any, each asset's bytes are its own, and nothing is cast or looked up.
            memory.sharesTextures = !recorded.records.dependencies.isEmpty
            var counted = [Bool](repeating: false, count: recorded.records.count)
            for position in indices {
                let entry = recorded.order?[position] ?? position
                let asset = Int(recorded.assetOfEntry[entry])
                guard asset >= 0, !counted[asset], recorded.failures.isEmpty || recorded.failures[entry] == nil,
                    let loaded = recorded.records.loaded(asset)
                else { continue }
                counted[asset] = true
                memory.count(loaded)
            }
        }
        return memory.total
    }

    /// Bytes of assets; when assets may share textures, each texture's memory once (by where its
    /// pixels are).
    private struct CountedMemory {
        private(set) var total = 0
        var sharesTextures = false
        private var seen = Set<UnsafeRawPointer>()

        mutating func count(_ asset: any Asset) {
            guard sharesTextures else {
                total += AssetResults.heldBytes(asset)
                return
            }
            if let holder = asset as? any TextureHolding {
                // What it holds beyond its textures (a map's tile layers) is its own: counted too.
                let textures = holder.heldTextures
                total += Swift.max(0, AssetResults.heldBytes(asset) - textures.reduce(0) { $0 + $1.byteCount })
                for texture in textures { count(texture: texture) }
            } else if let texture = asset as? Texture {
                count(texture: texture)
            } else {
                total += AssetResults.heldBytes(asset)
            }
        }

        private mutating func count(texture: Texture) {
            guard let address = texture.pixels.withUnsafeBytes({ $0.baseAddress }) else { return }
            if seen.insert(address).inserted { total += texture.byteCount }
        }
    }

    /// How many of these results loaded, failed and were cancelled, counted from the batch's
    /// records: no result is made per entry (a pack of thousands of entries counts at no cost).
    public var outcomeCounts: (loaded: Int, failed: Int, cancelled: Int) {
        var counts = (loaded: 0, failed: 0, cancelled: 0)
        switch storage {
        case .array(let array):
            for result in array {
                switch result.outcome {
                case .loaded: counts.loaded += 1
                case .failed: counts.failed += 1
                case .cancelled: counts.cancelled += 1
                }
            }
        case .batch(let recorded):
            for position in indices {
                switch recorded.outcomeKind(at: position) {
                case .loaded: counts.loaded += 1
                case .failed: counts.failed += 1
                case .cancelled: counts.cancelled += 1
                }
            }
        }
        return counts
    }

    /// The results that failed, in order; only those are made (the same as the `failed` of any
    /// collection of results, without making a result for each entry that loaded).
    public var failed: [AssetResult] {
        switch storage {
        case .array(let array): return array.filter { $0.outcome.error != nil }
        case .batch(let recorded): return indices.filter { recorded.outcomeKind(at: $0) == .failed }.map { recorded.result(at: $0) }
        }
    }

    /// Whether any of these results was loaded (or tried) by the plugin whose
    /// ``LoaderPlugin/identifier`` is `identifier`, read from the batch's records (no result is
    /// made): whether a report holds packs (`"pack"`), say.
    public func contains(plugin identifier: String) -> Bool {
        switch storage {
        case .array(let array): return array.contains { $0.plugin == identifier }
        case .batch(let recorded):
            guard let number = recorded.records.number(ofPlugin: identifier) else { return false }
            return indices.contains { position in
                let asset = recorded.asset(at: position)
                return asset >= 0 && recorded.records.slots[asset].plugin == number
            }
        }
    }

    /// What `asset` holds, or held before its hand-over (or the batch: ``ReleasedAsset``)
    /// released it.
    fileprivate static func heldBytes(_ asset: any Asset) -> Int {
        let bytes = asset.byteCount
        guard bytes == 0 else { return bytes }
        if let released = asset as? ReleasedAsset { return released.releasedByteCount }
        return (asset as? HandedOverAsset)?.releasedByteCount ?? 0
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        if let callerCount { return callerCount }
        switch storage {
        case .array(let array): return array.count
        case .batch(let recorded): return recorded.order?.count ?? recorded.assetOfEntry.count
        }
    }

    public subscript(position: Int) -> AssetResult {
        switch storage {
        case .array(let array): array[position]
        case .batch(let recorded): recorded.result(at: position)
        }
    }
}
