import Preload

/// The loader plugin for baked packs (`.bake`, written by `preload bake`): textures ready to
/// upload, atlases, data files and any other kind a plugin bakes, loaded by mapping the file and
/// handing out views into it, with no decoding and no copy.
///
/// The loader holds no code of its own for a kind: each entry is read by the `BakeableAsset` type
/// registered for its kind name (core's textures and data files, and the types each
/// `BakingPlugin` of the batch lists), so a pack's atlases load when the atlas plugin is
/// registered too. An entry of a kind no registered plugin reads fails alone, by name
/// (``BakedPackError/unreadableKind(entry:kind:)``).
///
/// Requesting a pack requests every asset baked into it, each under the store name loading its
/// source gave it, with its own result, hooks, store entry and share of progress: a game moves
/// from loose files to a baked pack by changing one path.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadBaked
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), BakedPackLoader()])
/// let report = try await coordinator.preload(["level1.bake"])
/// let hero = coordinator.assets.texture(named: "assets/hero.png")   // as loose: a view into the pack
/// ```
///
/// Each entry's CRC-32 is checked when it is loaded (``Verification/everyEntry``, the default; at
/// several GB/s); a damaged entry fails alone, by name. The index is always checked.
public struct BakedPackLoader: ContainerPlugin, BulkExpandingPlugin {
    /// What is checked when an entry loads.
    public enum Verification: Sendable {
        /// Every entry's checksum, as it loads (the default).
        case everyEntry
        /// Only the header's and the index's checksums: a pack you trust (shipped inside a signed
        /// build, say) loads without reading its pages until they are used.
        case indexOnly
    }

    /// What is checked when an entry loads.
    public let verification: Verification
    private let packs = BakedPackCache()

    /// A loader checking entries as `verification` says.
    public init(verification: Verification = .everyEntry) {
        self.verification = verification
    }

    public var identifier: String { "baked" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["bake"] }
    public var headerLength: Int { BakedFormat.magic.count }

    public func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: BakedFormat.magic) }

    // MARK: The pack as a container of entries

    public func opensContainer(at path: String, header: [UInt8]) -> Bool { header.starts(with: BakedFormat.magic) }

    public func entryNames(in container: String) throws -> [String] {
        try packs.open(container).index.entries.map(\.name)
    }

    public func entrySize(_ entry: String, in container: String) throws -> Int64 {
        guard let found = try packs.open(container).index.entry(named: entry) else { throw BakedPackError.noSuchEntry(entry) }
        return Int64(found.record.dataLength)
    }

    public func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64 {
        guard let found = try packs.open(container, facts: containerFacts).index.entry(named: entry) else {
            throw BakedPackError.noSuchEntry(entry)
        }
        return Int64(found.record.dataLength)
    }

    public func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        let pack = try packs.open(container)
        guard let found = pack.index.entry(named: entry) else { throw BakedPackError.noSuchEntry(entry) }
        guard found.record.dataLength <= UInt64(limit) else {
            throw AssetError(
                path: container + "#" + entry, category: .limitExceeded,
                reason: "the entry is \(found.record.dataLength) bytes, more than the \(limit) allowed")
        }
        return try bytes(of: found, in: pack)
    }

    // MARK: Requesting the pack requests its assets

    /// A request for every entry of the pack `request` names that loading its sources requested
    /// (not the pages and sprites loaded for an atlas: the atlas declares those), under the names
    /// the index gives them, with `request`'s options.
    public func expand(_ request: AssetRequest) throws -> [AssetRequest] {
        // A request for one entry (`level.bake#hero.png`, a reload) is what it says. Otherwise the
        // entries the bulk path lists, as requests (one list of them: the two paths cannot differ).
        guard let listed = try bulkEntries(of: request) else { return [request] }
        return (0..<listed.count).map {
            let name = listed.name(at: $0)
            return AssetRequest(path: request.path + "#" + name, name: name, plugin: identifier, options: request.options)
        }
    }

    /// The same entries as ``expand(_:)``, at once, by their positions in the pack's index, with
    /// their sizes and dependencies: the batch finds none of them by name (the bulk path), and
    /// reads an entry's name from the pack's index when it needs it (no string per entry).
    public func bulkEntries(of request: AssetRequest) throws -> BulkEntries? {
        if request.path.utf8.contains(UInt8(ascii: "#")), (try? FileFacts.of(path: request.path)) == nil { return nil }
        let pack = try packs.open(request.path)
        let entries = pack.index.entries
        var count = 0
        var dependencies: [Int: [AssetRequest]] = [:]
        // Positions are listed only once one differs from its entry's index (an entry left out
        // before it): a pack of textures alone lists none (8 bytes an entry).
        var positions: [Int] = []
        var skipped = false
        for position in entries.indices {
            let entry = entries[position], record = entry.record
            guard entry.isRequestedWithPack else {
                if !skipped { positions = Array(0..<count) }
                skipped = true
                continue
            }
            if !record.dependencies.isEmpty {  // most entries: a texture, a data file
                let requests = self.dependencies(of: position, in: pack, options: request.options)
                if !requests.isEmpty { dependencies[count] = requests }
            }
            count += 1
            if skipped { positions.append(position) }
        }
        let named = positions
        // Names and sizes read from the index by position: no column of either.
        return BulkEntries(
            container: request.path, count: count, name: { entries[named.isEmpty ? $0 : named[$0]].name },
            size: { Int64(entries.dataLength(at: named.isEmpty ? $0 : named[$0])) }, positions: positions, dependencies: dependencies)
    }

    /// Loads a run of the pack's entries: the pack is found once for the run, each entry by its
    /// position.
    public func loadEntries(_ run: BulkEntryRun) throws {
        let pack = try packs.open(run.container, facts: run.containerFacts)
        run.loadEach { position, context in try load(position, of: pack, context: context) }
    }

    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        guard let (pack, position) = try self.position(of: request) else { return [] }
        return dependencies(of: position, in: pack, options: request.options)
    }

    /// The requests entry `position` of `pack` depends on: the pages of an atlas (or a font, a
    /// map) that are requested on their own, not those packed with it.
    private func dependencies(of position: Int, in pack: BakedPackCache.Opened, options: AssetOptions) -> [AssetRequest] {
        let dependencies = pack.index.entries[position].dependencies
        guard !dependencies.isEmpty else { return [] }  // most entries: a texture, a data file
        return dependencies.map { pack.index.entries[$0] }.filter { !$0.record.bits.contains(.atlasPage) }.map { dependency in
            self.request(for: dependency, in: pack, options: options)
        }
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        guard let (pack, position) = try self.position(of: context.request) else {
            throw AssetError(
                path: context.request.path, category: .unsupported,
                reason: "is a baked pack: request it by a path ending in .bake (or with plugin \"baked\") to load what it holds")
        }
        return try load(position, of: pack, context: context)
    }

    /// Entry `position` of `pack`, read by its kind's reader.
    private func load(_ position: Int, of pack: BakedPackCache.Opened, context: LoadContext) throws -> any Asset {
        let entry = pack.index.entries[position]
        if let warnings = pack.index.warnings[position] { try context.warn(warnings) }  // what loading its source warned of, again
        guard let type = context.bakedAssetType(ofKind: entry.kind) else {
            throw BakedPackError.unreadableKind(entry: entry.name, kind: entry.kind)
        }
        return try type.unbaked(from: try contents(of: entry, at: position, in: pack, context: context, path: context.request.path))
    }

    /// `entry` as its kind's reader sees it: its checked bytes, its record's fields, its pages.
    private func contents(
        of entry: BakedIndex.Entry, at position: Int, in pack: BakedPackCache.Opened, context: LoadContext, path: String? = nil
    ) throws -> BakedEntryContents {
        BakedEntryContents(
            name: entry.name, path: path ?? pack.path + "#" + entry.name, kind: entry.kind, bytes: try bytes(of: entry, in: pack),
            width: Int(entry.record.width), height: Int(entry.record.height), kindBits: entry.record.bits.intersection(.kindBits).rawValue,
            source: EntrySource(loader: self, pack: pack, position: position, context: context))
    }

    /// What an entry's kind reaches of the pack: its pages, its errors and warnings, named.
    private struct EntrySource: BakedEntrySource {
        let loader: BakedPackLoader
        let pack: BakedPackCache.Opened
        let position: Int
        let context: LoadContext

        func page(_ entry: Int, path: String) throws -> Texture {
            try loader.page(entry, named: path, of: pack.index.entries[position], in: pack, context: context)
        }

        func malformed(_ why: String) -> any Error { BakedPackError.malformed("entry '\(pack.index.entries[position].name)': \(why)") }

        func warn(_ warning: AssetWarning) throws { try context.warn(warning) }
    }

    /// The texture of an entry's page (an atlas's, a font's, a map's image), entry `position` of
    /// the pack: a page packed at load time (an entry of its asset, not requested on its own) read
    /// here, any other through the batch, which loaded it as a dependency.
    fileprivate func page(
        _ position: Int, named path: String, of entry: BakedIndex.Entry, in pack: BakedPackCache.Opened, context: LoadContext
    ) throws -> Texture {
        let isTexture = { (kind: String) in ([Texture.bakedKind] + Texture.otherBakedKinds).contains(kind) }
        guard pack.index.entries.indices.contains(position), isTexture(pack.index.entries[position].kind) else {
            throw BakedPackError.malformed("entry '\(entry.name)': page \(path) is not a texture entry")
        }
        let pageEntry = pack.index.entries[position]
        guard pageEntry.record.bits.contains(.atlasPage) else {
            return try context.dependency(request(for: pageEntry, in: pack, options: context.request.options), as: Texture.self)
        }
        guard let texture = try Texture.unbaked(from: try contents(of: pageEntry, at: position, in: pack, context: context)) as? Texture else {
            throw BakedPackError.malformed("entry '\(entry.name)': page \(path) is not a texture entry")
        }
        return texture
    }

    // MARK: Entries

    /// The pack `request` names an entry of, and the entry's position in its index; `nil` for the
    /// pack file itself.
    private func position(of request: PlannedRequest) throws -> (pack: BakedPackCache.Opened, position: Int)? {
        guard let name = request.file.entry else { return nil }
        // `PACK#NAME`: the pack's path is what comes before the name and its `#`, counted in bytes.
        let path = request.path.utf8
        guard path.count > name.utf8.count else { return nil }
        let pack = try packs.open(String(request.path[..<path.index(path.endIndex, offsetBy: -name.utf8.count - 1)]), facts: request.file)
        guard let position = pack.index.position(of: name) else { throw BakedPackError.noSuchEntry(name) }
        return (pack, position)
    }

    /// The request that loads `entry`, named as the index names it.
    private func request(for entry: BakedIndex.Entry, in pack: BakedPackCache.Opened, options: AssetOptions) -> AssetRequest {
        AssetRequest(path: pack.path + "#" + entry.name, name: entry.name, plugin: identifier, options: options)
    }

    /// `entry`'s data: a view into the pack's mapping, its checksum checked unless the loader
    /// trusts the index.
    private func bytes(of entry: BakedIndex.Entry, in pack: BakedPackCache.Opened) throws -> AssetBytes {
        let mapping = try pack.mapped()
        let bytes = AssetBytes(viewing: mapping, offset: Int(entry.record.dataOffset), count: Int(entry.record.dataLength))
        if verification == .everyEntry, bytes.withUnsafeBytes(BakedChecksum.crc32) != entry.record.dataChecksum {
            throw BakedPackError.damaged("entry '\(entry.name)': its checksum does not match (the pack changed after baking)")
        }
        return bytes
    }
}
