import Preload

/// The pack loader plugin: `.pak` packs (see docs/pack-format.md), zip archives and single-file
/// gzip, recognised by their first bytes (the extensions `pak`, `zip` and `gz` claim them too).
///
/// Loading a pack loads every entry, each by the plugin that claims it, reading from inside the
/// pack: a PNG becomes a texture, a TexturePacker atlas finds its pages beside it, and anything
/// no plugin claims is delivered as raw `DataAsset` bytes. Entries are the pack's dependencies,
/// so they load in parallel, with progress weighted by their compressed sizes; one bad entry
/// fails alone. The pack itself loads as a ``PackAsset`` listing every entry's outcome. They are
/// declared at once (``bulkDependencies(of:)``, the bulk path) and read a run at a time from
/// the pack opened once per run (``loadEntries(_:)``).
///
/// An entry can also be requested on its own as `PACK#ENTRY`:
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadPNG
/// import PreloadPack
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
/// let report = try await coordinator.preload(["game.pak", "extras.zip#music/theme.ogg"])
/// let hero = coordinator.assets.texture(named: "game.pak#sprites/hero.png")
/// ```
///
/// Packs inside packs are delivered as raw data, not opened.
public struct PackLoader: ContainerPlugin, BulkDependingPlugin {
    /// The limits every entry is read under (decompression bombs stop at them).
    public let limits: PackLimits
    private let indexes = PackIndexCache()

    /// A pack loader refusing entries beyond `limits`.
    public init(limits: PackLimits = PackLimits()) {
        self.limits = limits
    }

    public var identifier: String { "pack" }
    public var assetKind: AssetKind { .pack }
    public var fileExtensions: Set<String> { ["pak", "zip", "gz"] }
    public var headerLength: Int { 8 }
    public var toleratesFailedDependencies: Bool { true }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        PackIndexReader.format(of: header) != nil
    }

    /// The index of the pack at `path`, read once while the file stays the same.
    public func index(of path: String) throws -> PackIndex {
        try indexes.index(of: path)
    }

    /// The request a pack makes for one of its entries (its path is `PACK#ENTRY`).
    public func entryRequest(pack: String, entry: String) -> AssetRequest {
        AssetRequest(path: pack + "#" + entry)
    }

    // MARK: LoaderPlugin

    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        guard request.file.entry == nil else { return [] }  // an entry (a pack in a pack is data)
        var seen = Set<String>()
        return try index(of: request.path).entries.compactMap { entry in
            seen.insert(entry.name).inserted ? entryRequest(pack: request.path, entry: entry.name) : nil
        }
    }

    /// The same entries as ``dependencies(of:)``, at once (the bulk path): each by its position
    /// in the pack's index, with its stored size, claimed as a file inside the pack; `nil` for an
    /// entry (a pack in a pack is data).
    public func bulkDependencies(of request: PlannedRequest) throws -> BulkEntries? {
        guard request.file.entry == nil else { return nil }
        let entries = try indexes.index(of: request.path, facts: request.file).entries
        var listed = BulkEntries(container: request.path, names: [], sizes: [], options: AssetOptions())
        listed.names.reserveCapacity(entries.count)
        listed.sizes.reserveCapacity(entries.count)
        listed.positions.reserveCapacity(entries.count)
        var seen = Set<String>(minimumCapacity: entries.count)
        for position in entries.indices where seen.insert(entries[position].name).inserted {
            listed.names.append(entries[position].name)
            listed.sizes.append(Int64(entries[position].storedSize))
            listed.positions.append(position)
        }
        listed.loaders = Array(repeating: BulkEntries.claimedAsFile, count: listed.names.count)
        return listed
    }

    /// Reads a run of the pack's entries for the plugins that load them: the index found and the
    /// file opened once for the run, each entry found by its position.
    public func loadEntries(_ run: BulkEntryRun) throws {
        let entries = try indexes.index(of: run.container, facts: run.containerFacts).entries
        let file = try indexes.file(at: run.container, facts: run.containerFacts)
        run.loadEach(reading: { position, limit, memory, isCancelled, progress in
            try EntryReader.read(
                entries[position], from: file, limits: limits.capped(at: limit), memory: memory, isCancelled: isCancelled, progress: progress)
        })
    }

    /// An entry's first bytes, for the claim rule, by its position in the index: the pack held
    /// open, its index found by the facts planning has of it.
    public func entryPrefix(at position: Int, in container: String, containerFacts: FileFacts, count: Int) throws -> [UInt8]? {
        let entries = try indexes.index(of: container, facts: containerFacts).entries
        guard entries.indices.contains(position) else { return nil }
        return try EntryReader.prefix(entries[position], from: try indexes.file(at: container, facts: containerFacts), count: count)
    }

    /// Runs of entries other plugins load (an image in a zip) are read here too.
    public var readsEntriesForOtherPlugins: Bool { true }

    /// A pack's own work is reading its index; its entries carry their compressed sizes.
    public func estimatedWork(for request: PlannedRequest) -> Int64? {
        request.file.entry == nil ? 1 : nil
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        guard context.request.file.entry == nil else {
            // An entry no other plugin claims, or a pack inside a pack: its raw bytes.
            return DataAsset(bytes: try context.readContents(reportingProgress: true))
        }
        return try PackAsset.gathering(context.request, loader: self, context: context)
    }

    // MARK: ContainerPlugin

    public func opensContainer(at path: String, header: [UInt8]) -> Bool {
        PackIndexReader.format(of: header) != nil
    }

    public func entryNames(in container: String) throws -> [String] {
        try index(of: container).entries.map(\.name)
    }

    public func entrySize(_ entry: String, in container: String) throws -> Int64 {
        Int64(try self.entry(entry, in: container).storedSize)
    }

    /// ``entrySize(_:in:)`` with the index found by the facts planning has of the pack: no `stat`
    /// of the pack per entry.
    public func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64 {
        guard let found = try indexes.index(of: container, facts: containerFacts).entry(named: entry) else { throw PackError.noSuchEntry(entry) }
        return Int64(found.storedSize)
    }

    public func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        try EntryReader.read(
            try self.entry(entry, in: container), from: container, limits: limits.capped(at: limit), memory: memory,
            isCancelled: isCancelled, progress: progress)
    }

    public func entryPrefix(_ entry: String, in container: String, count: Int) throws -> [UInt8] {
        try EntryReader.prefix(try self.entry(entry, in: container), from: container, count: count)
    }

    private func entry(_ name: String, in container: String) throws -> PackIndex.Entry {
        guard let entry = try index(of: container).entry(named: name) else { throw PackError.noSuchEntry(name) }
        return entry
    }
}

extension AssetKind {
    /// A data pack, zip archive or gzip file (``PackAsset``).
    public static let pack: AssetKind = "pack"
}
