import Foundation
import Preload
import PreloadBaked

/// The entries a bake writes, in order: each asset's own (which its type writes:
/// `BakeableAsset`), and the textures it names as pages, stored once each.
struct BakePlan {
    typealias BakeError = BakeWriter.BakeError

    struct Entry {
        var name: String
        var sourcePath: String
        /// The kind name recorded (the type's, or the one its entry asked for).
        var kind: String
        /// The asset the entry holds (a page made at load: its texture).
        var asset: any BakeableAsset
        var bits: BakedFormat.Record.Bits
        var width = 0, height = 0
        var bytes: AssetBytes = []
        var dependencies: [Int] = []
        /// What loading its source warned of.
        var warnings: [AssetWarning] = []

        /// Takes what `asset`'s type baked: bytes, size, kind and the kind's own bits.
        mutating func take(_ baked: BakedEntry) {
            bytes = baked.bytes
            (width, height) = (baked.width, baked.height)
            kind = baked.kind ?? type(of: asset).bakedKind
            bits.subtract(.kindBits)
            bits.formUnion(BakedFormat.Record.Bits(rawValue: baked.kindBits))
        }
    }

    var entries: [Entry] = []
    var byName: [String: Int] = [:]
    /// Texture entries by the path they were loaded from (an atlas's page is one).
    var texturesByPath: [String: Int] = [:]

    /// Adds `result`'s asset (and what loading it loaded for it, from `group`, and its pages);
    /// returns its position.
    @discardableResult
    mutating func add(_ result: AssetResult, isDependency: Bool, group: [AssetResult]) throws -> Int {
        let position = try addAsset(result, isDependency: isDependency, group: group)
        if entries[position].warnings.isEmpty { entries[position].warnings = result.warnings }
        return position
    }

    /// ``add(_:isDependency:group:)`` without the warnings: the asset's place first, so that the
    /// pack lists assets in the order loading listed them; then what loading it loaded for it
    /// (the textures of `group` that are its pages, or inside its folder: a sprite folder's
    /// sprites) as dependencies; then its pages' entries, whose numbers its entry keeps.
    private mutating func addAsset(_ result: AssetResult, isDependency: Bool, group: [AssetResult]) throws -> Int {
        let name = result.request.name, path = result.request.path
        if let known = byName[name] {
            // Loaded for an atlas first, requested on its own too (a page found in a walked folder).
            if !isDependency { entries[known].bits.remove(.dependency) }
            return known
        }
        guard BakeWriter.isValidName(name) else { throw BakeError.nameEscapes(name) }
        guard let loaded = result.outcome.asset else { throw BakeError.sourcesFailed([result.outcome.error].compactMap { $0 }) }
        guard let asset = loaded as? any BakeableAsset else { throw BakeError.unsupportedKind(name: name, kind: loaded.kind.rawValue) }
        let pages: [BakedPage]
        do { pages = try asset.bakedPages() } catch { throw BakeError.entryFailed(name: name, cause: "\(error)") }
        let position = append(
            Entry(name: name, sourcePath: path, kind: type(of: asset).bakedKind, asset: asset, bits: isDependency ? .dependency : []))
        if asset is Texture { texturesByPath[path] = position }
        var dependencies: [Int] = []
        if group.count > 1 {
            let pagePaths = Set(pages.map(\.path))
            for dependency in group.dropFirst()
            where dependency.outcome.asset is Texture
                && (pagePaths.contains(dependency.request.path) || dependency.request.path.hasPrefix(path + "/"))
            {
                dependencies.append(try add(dependency, isDependency: true, group: []))
            }
        }
        let placed = try pageEntries(pages, of: name, source: path)
        do { entries[position].take(try asset.baked(pageEntries: placed.all)) } catch { throw BakeError.entryFailed(name: name, cause: "\(error)") }
        var listed = Set<Int>()
        entries[position].dependencies = (dependencies + placed.made).filter { listed.insert($0).inserted }  // a page may be a sprite too
        return position
    }

    /// The entries holding `pages` (an asset's, in order): the texture entry of the file a page
    /// was loaded from, else a new entry `NAME#N` of the asset `name` (a page made at load time:
    /// a packed sprite folder, a rasterized font), which `made` lists, its source the file it
    /// was made from (`BakedPage.madeFrom`, else the asset's `source`).
    private mutating func pageEntries(_ pages: [BakedPage], of name: String, source: String) throws -> (all: [Int], made: [Int]) {
        var all: [Int] = [], made: [Int] = []
        for (number, page) in pages.enumerated() {
            if let known = texturesByPath[page.path], entries[known].asset as? Texture == page.texture {
                all.append(known)
            } else {
                let pageName = "\(name)#\(number + 1)"
                guard byName[pageName] == nil else { throw BakeError.nameTaken(pageName) }
                var entry = Entry(
                    name: pageName, sourcePath: page.madeFrom ?? source, kind: Texture.bakedKind, asset: page.texture,
                    bits: [.atlasPage, .dependency])
                entry.take(try page.texture.baked(pageEntries: []))
                all.append(append(entry))
                made.append(all[all.count - 1])
            }
        }
        return (all, made)
    }

    mutating func append(_ entry: Entry) -> Int {
        entries.append(entry)
        byName[entry.name] = entries.count - 1
        return entries.count - 1
    }

    /// Writes the pack; returns its size. Version 2: the kinds the entries use, named in the
    /// metadata in the order they first appear, records numbering them from 1.
    func write(to path: String, flags: BakedFormat.Flags) throws -> Int {
        let file = try AtomicFile(path: path)
        var sources = SourceDigests()
        var strings: [UInt8] = []
        var table: [UInt32] = []
        var records: [UInt8] = []
        var kinds: [String] = [], kindNumbers: [String: UInt8] = [:]
        var offset = BakedFormat.headerSize
        try file.write([UInt8](repeating: 0, count: BakedFormat.headerSize))  // filled in at the end
        func string(_ text: String) -> Range<UInt32> {
            let start = UInt32(strings.count)
            strings += Array(text.utf8)
            return start..<UInt32(strings.count)
        }
        for entry in entries {
            if kindNumbers[entry.kind] == nil {
                guard kinds.count < Int(UInt8.max) else { throw BakeError.entryFailed(name: entry.name, cause: "a pack holds 255 kinds at most") }
                kinds.append(entry.kind)
                kindNumbers[entry.kind] = UInt8(kinds.count)
            }
            let start = BakedFormat.alignedOffset(after: offset, length: entry.bytes.count)
            if start > offset { try file.write([UInt8](repeating: 0, count: start - offset)) }
            try entry.bytes.withUnsafeBytes { try file.write($0) }
            offset = start + entry.bytes.count
            let source = sources.digest(of: entry.sourcePath)
            let dependencyStart = UInt32(table.count)
            table += entry.dependencies.map(UInt32.init)
            records += BakedFormat.Record(
                dataOffset: UInt64(start), dataLength: UInt64(entry.bytes.count), sourceSize: source.size,
                dataChecksum: entry.bytes.withUnsafeBytes(BakedChecksum.crc32), sourceChecksum: source.checksum,
                name: string(entry.name), sourcePath: string(entry.sourcePath), width: UInt32(entry.width), height: UInt32(entry.height),
                dependencies: dependencyStart..<UInt32(table.count), kind: kindNumbers[entry.kind]!, bits: entry.bits
            ).encoded()
        }
        var warnings: [Int: [AssetWarning]] = [:]
        for (position, entry) in entries.enumerated() where !entry.warnings.isEmpty { warnings[position] = entry.warnings }
        let metadata = string(String(decoding: try BakedMetadata(kinds: kinds, warnings: warnings).encoded(), as: UTF8.self))
        let indexOffset = (offset + 7) / 8 * 8
        if indexOffset > offset { try file.write([UInt8](repeating: 0, count: indexOffset - offset)) }
        var index = records
        for value in table { index.appendLittleEndian(value) }
        index += strings
        try file.write(index)
        let length = indexOffset + index.count
        let header = BakedFormat.Header(
            flags: flags, fileLength: UInt64(length), indexOffset: UInt64(indexOffset), indexLength: UInt64(index.count),
            entryCount: UInt32(entries.count), dependencyCount: UInt32(table.count), indexChecksum: BakedChecksum.crc32(index),
            metadata: metadata)
        try file.write(header.encoded(checksum: BakedChecksum.crc32), at: 0)
        try file.commit()
        return length
    }
}
