import Foundation
import Preload
import PreloadAtlas
import PreloadFont
import PreloadTileMap

/// The loader plugin for baked packs (`.bake`, written by `preload bake`): textures ready to
/// upload, atlases and data files, loaded by mapping the file and handing out views into it, with
/// no decoding and no copy.
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
public struct BakedPackLoader: ContainerPlugin, ExpandingPlugin {
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
        // A request for one entry (`level.bake#hero.png`, a reload) is what it says.
        if request.path.utf8.contains(UInt8(ascii: "#")), (try? FileFacts.of(path: request.path)) == nil { return [request] }
        let pack = try packs.open(request.path)
        let entries = pack.index.entries
        var requests: [AssetRequest] = []
        requests.reserveCapacity(entries.count)
        for position in entries.indices where entries[position].isRequestedWithPack {  // (no copy of each entry)
            let name = entries[position].name
            requests.append(AssetRequest(path: request.path + "#" + name, name: name, plugin: identifier, options: request.options))
        }
        return requests
    }

    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        guard let (pack, position) = try self.position(of: request) else { return [] }
        let dependencies = pack.index.entries[position].dependencies
        guard !dependencies.isEmpty else { return [] }  // most entries: a texture, a data file
        return dependencies.map { pack.index.entries[$0] }.filter { !$0.record.bits.contains(.atlasPage) }.map { dependency in
            self.request(for: dependency, in: pack, options: request.options)
        }
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        guard let (pack, position) = try self.position(of: context.request) else {
            throw AssetError(
                path: context.request.path, category: .unsupported,
                reason: "is a baked pack: request it by a path ending in .bake (or with plugin \"baked\") to load what it holds")
        }
        let entry = pack.index.entries[position]
        if let warnings = pack.index.warnings[position] { try context.warn(warnings) }  // what loading its source warned of, again
        switch entry.record.kind {
        case .texture, .gpuTexture:
            return try texture(entry, in: pack)
        case .data:
            return DataAsset(bytes: try bytes(of: entry, in: pack))
        case .audio:
            let checked = try bytes(of: entry, in: pack)
            return try BakedAudio.asset(in: try pack.mapped(), offset: Int(entry.record.dataOffset), count: checked.count, name: entry.name)
        case .atlas:
            let table = try self.table(BakedAtlasTable.self, of: entry, in: pack, what: "atlas")
            let pages = try table.pages.map { page in
                AtlasPage(path: page.path, texture: try self.page(page.entry, named: page.path, of: entry, in: pack, context: context))
            }
            return try table.atlas(pages: pages)
        case .font:
            let bytes = try bytes(of: entry, in: pack)
            let (header, layout) = try bytes.withUnsafeBytes { try BakedFont.header(of: $0, name: entry.name) }
            let pages = try header.pages.map { page in
                FontPage(path: page.path, texture: try self.page(page.entry, named: page.path, of: entry, in: pack, context: context))
            }
            return try bytes.withUnsafeBytes { try BakedFont.font(in: $0, header: header, layout: layout, name: entry.name, pages: pages) }
        case .tilemap:
            let (images, map) = try bytes(of: entry, in: pack).withUnsafeBytes { try BakedMap.tables(of: $0, name: entry.name) }
            var textures: [String: Texture] = [:]
            for image in images {
                textures[image.path] = try self.page(image.entry, named: image.path, of: entry, in: pack, context: context)
            }
            // Attached and checked as a loose map's are: every placed tile inside its tileset's image.
            let (loaded, _) = try map.withTextures(file: context.request.path) { path in
                guard let texture = textures[path] else { throw BakedPackError.malformed("entry '\(entry.name)': no entry holds its image \(path)") }
                return texture
            }
            return loaded
        }
    }

    /// The JSON table of an atlas entry.
    private func table<Table: Decodable>(
        _ type: Table.Type, of entry: BakedIndex.Entry, in pack: BakedPackCache.Opened, what: String
    ) throws -> Table {
        do {
            return try JSONDecoder().decode(Table.self, from: try bytes(of: entry, in: pack).withUnsafeBytes { Data($0) })
        } catch let error as AssetError {
            throw error
        } catch {
            throw BakedPackError.malformed("entry '\(entry.name)': its \(what) table does not read: \(error)")
        }
    }

    /// The texture of an atlas's or a font's page, entry `position` of the pack: a page packed at
    /// load time (an entry of its atlas, not requested on its own) read here, any other through
    /// the batch, which loaded it as a dependency.
    private func page(
        _ position: Int, named path: String, of entry: BakedIndex.Entry, in pack: BakedPackCache.Opened, context: LoadContext
    ) throws -> Texture {
        guard pack.index.entries.indices.contains(position), pack.index.entries[position].record.kind.isTexture else {
            throw BakedPackError.malformed("entry '\(entry.name)': page \(path) is not a texture entry")
        }
        let pageEntry = pack.index.entries[position]
        return pageEntry.record.bits.contains(.atlasPage)
            ? try texture(pageEntry, in: pack)
            : try context.dependency(request(for: pageEntry, in: pack, options: context.request.options), as: Texture.self)
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

    private func texture(_ entry: BakedIndex.Entry, in pack: BakedPackCache.Opened) throws -> Texture {
        let record = entry.record
        guard record.kind.isTexture else { throw BakedPackError.malformed("entry '\(entry.name)' is not a texture") }
        if record.kind == .gpuTexture {
            let bytes = try bytes(of: entry, in: pack)
            let header = try bytes.withUnsafeBytes { bytes throws(BakedPackError) in
                try BakedGPUTexture.header(of: bytes, width: Int(record.width), height: Int(record.height), name: entry.name)
            }
            let mapping = try pack.mapped()
            let levels = AssetBytes(
                viewing: mapping, offset: Int(record.dataOffset) + header.levelsStart, count: bytes.count - header.levelsStart)
            return Texture(
                width: Int(record.width), height: Int(record.height), pixelFormat: header.format, alphaMode: record.alphaMode,
                colorSpace: header.colorSpace, mipLevelCount: header.levelCount, pixels: levels)
        }
        return Texture(
            width: Int(record.width), height: Int(record.height), pixelFormat: record.pixelFormat, alphaMode: record.alphaMode,
            pixels: try bytes(of: entry, in: pack))
    }
}
