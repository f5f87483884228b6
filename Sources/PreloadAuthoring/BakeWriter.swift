import Foundation
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadGPU
import PreloadTileMap
import PreloadBaked
import PreloadPack

/// Writes a baked pack (`BakedFormat`) from what a batch loaded: every texture, atlas and data
/// file of the report, under the names loading gave them, so that loading the pack gives the
/// same store names, results and pixels as loading the sources.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadAuthoring
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// let report = try await coordinator.preload([.folder("assets")])
/// let summary = try BakeWriter.write(report, to: "level1.bake")
/// print(summary)   // "Baked 14 entries (12 textures, 1 atlas, 1 data file), 4.2 MB, into level1.bake"
/// ```
///
/// The pack is written to a temporary file beside `path` and renamed over it: a reader never sees
/// half a pack, and a game that has the old pack mapped keeps reading the old file.
public enum BakeWriter {
    /// Why a report cannot be baked. Nothing is written.
    public enum BakeError: Error, Sendable, CustomStringConvertible {
        /// Some of the sources did not load.
        case sourcesFailed([AssetError])
        /// An asset of a kind the format has no entry for (a third-party plugin's).
        case unsupportedKind(name: String, kind: String)
        /// A name that would leave the pack (absolute, or with `..`).
        case nameEscapes(String)
        /// A name the pack gives a page packed at load time (`ATLAS#N`, as the atlas names the page) is an asset's already.
        case nameTaken(String)
        /// Nothing to bake.
        case empty
        /// A texture did not encode into its GPU format.
        case gpuEncodingFailed(name: String, cause: String)
        /// With ``TextureBaking/isStrict``, textures whose quality fell below the threshold.
        case belowQuality([GPUTextureQuality], threshold: Double)

        public var description: String {
            switch self {
            case .sourcesFailed(let errors):
                "\(counted(errors.count, "source")) did not load, so nothing was baked:\n"
                    + errors.map { "  " + $0.description }.joined(separator: "\n")
            case .unsupportedKind(let name, let kind):
                "\(name): a \(kind) asset has no baked form (textures, atlases, fonts, maps, data files, sounds and music do)"
            case .nameEscapes(let name):
                "\(name): an entry's name is the store name, and this one would leave the pack: give paths inside the current folder, or name the folder they are relative to with --root DIR"
            case .nameTaken(let name):
                "\(name): the pack names an atlas's packed page so, and an asset already has that name"
            case .empty: "nothing to bake: no asset loaded"
            case .gpuEncodingFailed(let name, let cause): "\(name): did not encode for the GPU: \(cause)"
            case .belowQuality(let textures, let threshold):
                "\(counted(textures.count, "texture")) below \(GPUTextureQuality.decibels(threshold)) PSNR (--strict), so nothing was baked:\n"
                    + textures.map { "  \($0.name): \(GPUTextureQuality.decibels($0.psnr)) in \($0.format)" }.joined(separator: "\n")
            }
        }
    }

    /// What was baked.
    public struct Summary: Sendable, CustomStringConvertible {
        /// The pack written.
        public var path: String
        /// Entries by kind.
        public var textures = 0, atlases = 0, dataFiles = 0
        /// Sounds and music (`BakedAudio`).
        public var audio = 0
        /// Bitmap fonts (`BakedFont`).
        public var fonts = 0
        /// Tiled maps (`BakedMap`).
        public var maps = 0
        /// Pages made at load time (packed sprite folders, rasterized fonts), stored as entries of
        /// their atlas or font.
        public var packedPages = 0
        /// The pack's size in bytes.
        public var bytes = 0
        /// Packs baked as their entries (the pack itself is not an asset of the baked pack).
        public var unpackedPacks: [String] = []
        /// With ``TextureBaking``: each texture's GPU format and quality, and the totals.
        public var gpu: GPUBakeTotals?

        /// Every entry, pages included.
        public var entries: Int { textures + atlases + dataFiles + audio + fonts + maps + packedPages }

        /// `16.4 KB`, `4.2 MB`: as the command's summaries show sizes.
        public static func shown(_ bytes: Int) -> String {
            bytes < 1000
                ? "\(bytes) B" : bytes < 1_000_000 ? String(format: "%.1f KB", Double(bytes) / 1e3) : String(format: "%.1f MB", Double(bytes) / 1e6)
        }

        public var description: String {
            var parts = [counted(textures, "texture")]
            if atlases > 0 { parts.append(counted(atlases, "atlas", plural: "atlases")) }
            if dataFiles > 0 { parts.append(counted(dataFiles, "data file")) }
            if audio > 0 { parts.append(counted(audio, "sound or music", plural: "sounds and music")) }
            if fonts > 0 { parts.append(counted(fonts, "font")) }
            if maps > 0 { parts.append(counted(maps, "map")) }
            if packedPages > 0 { parts.append(counted(packedPages, "page made at load", plural: "pages made at load")) }
            return "Baked \(counted(entries, "entry", plural: "entries")) (\(parts.joined(separator: ", "))), "
                + "\(Self.shown(bytes)), into \(path)"
        }
    }

    /// Bakes what `report` loaded into a pack at `path`, flagging it with `flags`. Throws
    /// ``BakeError`` (writing nothing) when a source failed, an asset has no baked form or a name
    /// would leave the pack (or, with `textures`, a texture did not encode or, strict, fell below
    /// its quality threshold), and `AtomicFile.WriteError` when the file cannot be written.
    @discardableResult
    public static func write(
        _ report: PreloadReport, to path: String, flags: BakedFormat.Flags = [], textures: TextureBaking? = nil
    ) throws -> Summary {
        let errors = report.errors
        guard errors.isEmpty else { throw BakeError.sourcesFailed(errors) }
        var plan = Plan()
        var summary = Summary(path: path)
        for group in report.resultsByCaller {
            let caller = group[0]
            if caller.outcome.asset is PackAsset {
                // The pack's loaded entries become entries of their own, named as loading it names them.
                summary.unpackedPacks.append(caller.request.path)
                for result in group.dropFirst() where !(result.outcome.asset is PackAsset) {
                    try plan.add(result, isDependency: false, group: group)
                }
                continue
            }
            try plan.add(caller, isDependency: false, group: group)
        }
        guard !plan.entries.isEmpty else { throw BakeError.empty }
        if let textures { try plan.bakeTextures(textures, into: &summary) }
        for entry in plan.entries {
            switch entry.kind {
            case .texture, .gpuTexture: if entry.bits.contains(.atlasPage) { summary.packedPages += 1 } else { summary.textures += 1 }
            case .atlas: summary.atlases += 1
            case .data: summary.dataFiles += 1
            case .audio: summary.audio += 1
            case .font: summary.fonts += 1
            case .tilemap: summary.maps += 1
            }
        }
        summary.bytes = try plan.write(to: path, flags: flags)
        return summary
    }

    /// Whether `name` may name an entry: relative, without empty, `.` or `..` components or NUL.
    public static func isValidName(_ name: String) -> Bool { BakedIndex.staysInside(name) }

    /// The entries to write, in order.
    private struct Plan {
        struct Entry {
            var name: String
            var sourcePath: String
            var kind: BakedFormat.Kind
            var bits: BakedFormat.Record.Bits
            var width = 0, height = 0
            var bytes: AssetBytes
            var dependencies: [Int] = []
            /// What loading its source warned of.
            var warnings: [AssetWarning] = []
        }

        var entries: [Entry] = []
        var byName: [String: Int] = [:]
        /// Texture entries by the path they were loaded from (an atlas's page is one).
        var texturesByPath: [String: Int] = [:]

        /// Adds `result`'s asset (and, for an atlas, its dependencies from `group` and its
        /// pages); returns its position.
        @discardableResult
        mutating func add(_ result: AssetResult, isDependency: Bool, group: [AssetResult]) throws -> Int {
            let position = try addAsset(result, isDependency: isDependency, group: group)
            if entries[position].warnings.isEmpty { entries[position].warnings = result.warnings }
            return position
        }

        /// ``add(_:isDependency:group:)`` without the warnings.
        private mutating func addAsset(_ result: AssetResult, isDependency: Bool, group: [AssetResult]) throws -> Int {
            let name = result.request.name
            if let known = byName[name] {
                // Loaded for an atlas first, requested on its own too (a page found in a walked folder).
                if !isDependency { entries[known].bits.remove(.dependency) }
                return known
            }
            guard BakeWriter.isValidName(name) else { throw BakeError.nameEscapes(name) }
            let bits: BakedFormat.Record.Bits = isDependency ? .dependency : []
            switch result.outcome.asset {
            case let texture as Texture:
                let position = append(texture: texture, name: name, source: result.request.path, bits: bits)
                texturesByPath[result.request.path] = position
                return position
            case let data as DataAsset:
                return append(Entry(name: name, sourcePath: result.request.path, kind: .data, bits: bits, bytes: data.bytes))
            case let sound as Sound:
                return append(Entry(name: name, sourcePath: result.request.path, kind: .audio, bits: bits, bytes: try BakedAudio.encode(sound)))
            case let music as Music:
                return append(Entry(name: name, sourcePath: result.request.path, kind: .audio, bits: bits, bytes: BakedAudio.encode(music)))
            case let atlas as TextureAtlas:
                return try addPaged(
                    result, kind: .atlas, bits: bits, group: group, pages: atlas.pages.map { ($0.path, $0.texture) },
                    belongs: { Self.belongs($0, to: atlas, at: result) }, encode: { try Self.json(BakedAtlasTable(atlas, pageEntries: $0)) })
            case let font as BitmapFont:
                let paths = Set(font.pages.map(\.path))
                return try addPaged(
                    result, kind: .font, bits: bits, group: group, pages: font.pages.map { ($0.path, $0.texture) },
                    belongs: { paths.contains($0.request.path) }, encode: { try BakedFont.encode(font, pageEntries: $0) })
            case let map as TileMap:
                let images = map.images.compactMap { image in image.texture.map { (image.path, $0) } }
                guard images.count == map.images.count else { throw BakeError.unsupportedKind(name: name, kind: "tilemap without its images") }
                let paths = Set(images.map(\.0))
                return try addPaged(
                    result, kind: .tilemap, bits: bits, group: group, pages: images, belongs: { paths.contains($0.request.path) },
                    encode: { try BakedMap.encode(map, imageEntries: $0) })
            case let asset?:
                throw BakeError.unsupportedKind(name: name, kind: asset.kind.rawValue)
            case nil:
                throw BakeError.sourcesFailed([result.outcome.error].compactMap { $0 })
            }
        }

        /// Adds an asset made of pages (an atlas, a font, a map): its place first, so that the pack
        /// lists assets in the order loading listed them; then what loading it loaded for it (the
        /// textures of `group` that `belongs` says are its: pages, sprites, images) as
        /// dependencies; then its pages' entries, which `encode` writes its data with.
        private mutating func addPaged(
            _ result: AssetResult, kind: BakedFormat.Kind, bits: BakedFormat.Record.Bits, group: [AssetResult],
            pages: [(path: String, texture: Texture)], belongs: (AssetResult) -> Bool, encode: ([Int]) throws -> AssetBytes
        ) throws -> Int {
            let name = result.request.name
            let position = append(Entry(name: name, sourcePath: result.request.path, kind: kind, bits: bits, bytes: []))
            var dependencies: [Int] = []
            for dependency in group.dropFirst() where dependency.outcome.asset is Texture && belongs(dependency) {
                dependencies.append(try add(dependency, isDependency: true, group: []))
            }
            let placed = try pageEntries(pages, of: name, source: result.request.path)
            entries[position].bytes = try encode(placed.all)
            var listed = Set<Int>()
            entries[position].dependencies = (dependencies + placed.made).filter { listed.insert($0).inserted }  // a page may be a sprite too
            return position
        }

        /// The entries holding `pages` (an atlas's, a font's or a map's, in order): the texture entry of the
        /// file a page was loaded from, else a new entry `NAME#N` of the asset `name` (a page made
        /// at load time: a packed sprite folder, a rasterized font), which `made` lists.
        private mutating func pageEntries(
            _ pages: [(path: String, texture: Texture)], of name: String, source: String
        ) throws -> (all: [Int], made: [Int]) {
            var all: [Int] = [], made: [Int] = []
            for (number, page) in pages.enumerated() {
                if let known = texturesByPath[page.path], entries[known].width == page.texture.width,
                    entries[known].height == page.texture.height, entries[known].bytes == page.texture.pixels
                {
                    all.append(known)
                } else {
                    let pageName = "\(name)#\(number + 1)"
                    guard byName[pageName] == nil else { throw BakeError.nameTaken(pageName) }
                    all.append(append(texture: page.texture, name: pageName, source: source, bits: [.atlasPage, .dependency]))
                    made.append(all[all.count - 1])
                }
            }
            return (all, made)
        }

        /// A table as the pack stores it: JSON, keys sorted.
        private static func json<Table: Encodable>(_ table: Table) throws -> AssetBytes {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return AssetBytes([UInt8](try encoder.encode(table)))
        }

        /// Whether `dependency` (from the same caller's group) was loaded for `atlas`: one of its
        /// pages, or a sprite inside its folder. A pack's group holds every entry of the pack.
        static func belongs(_ dependency: AssetResult, to atlas: TextureAtlas, at result: AssetResult) -> Bool {
            let path = dependency.request.path
            return atlas.pages.contains { $0.path == path } || path.hasPrefix(result.request.path + "/")
        }

        private mutating func append(texture: Texture, name: String, source: String, bits: BakedFormat.Record.Bits) -> Int {
            var bits = bits
            if texture.alphaMode == .premultiplied { bits.insert(.premultiplied) }
            if texture.pixelFormat.isBlockCompressed || texture.mipLevelCount > 1 || texture.colorSpace != .sRGB {
                return append(
                    Entry(
                        name: name, sourcePath: source, kind: .gpuTexture, bits: bits, width: texture.width, height: texture.height,
                        bytes: BakedGPUTexture.encode(texture, quality: nil)))
            }
            if texture.pixelFormat == .rgba16 { bits.insert(.rgba16) }
            return append(
                Entry(name: name, sourcePath: source, kind: .texture, bits: bits, width: texture.width, height: texture.height, bytes: texture.pixels)
            )
        }

        /// Turns every texture entry into a GPU texture entry as `baking` says, noting each one's
        /// format and quality in `summary`; warns of (or, strict, fails on) low quality.
        mutating func bakeTextures(_ baking: TextureBaking, into summary: inout Summary) throws {
            let positions = entries.indices.filter { entries[$0].kind == .texture }
            let sources = positions.map { position in
                let entry = entries[position]
                return (
                    entry.name,
                    Texture(
                        width: entry.width, height: entry.height, pixelFormat: entry.bits.contains(.rgba16) ? .rgba16 : .rgba8,
                        alphaMode: entry.bits.contains(.premultiplied) ? .premultiplied : .straight, pixels: entry.bytes)
                )
            }
            let (baked, totals) = try baking.apply(to: sources)
            summary.gpu = totals
            for (position, result) in zip(positions, baked) {
                entries[position].kind = .gpuTexture
                entries[position].bits.remove(.rgba16)
                entries[position].bytes = BakedGPUTexture.encode(result.texture, quality: result.psnr)
                if let warning = baking.warning(for: result) { entries[position].warnings.append(warning) }
            }
        }

        private mutating func append(_ entry: Entry) -> Int {
            entries.append(entry)
            byName[entry.name] = entries.count - 1
            return entries.count - 1
        }

        /// Writes the pack; returns its size.
        func write(to path: String, flags: BakedFormat.Flags) throws -> Int {
            let file = try AtomicFile(path: path)
            var sources = SourceDigests()
            var strings: [UInt8] = []
            var table: [UInt32] = []
            var records: [UInt8] = []
            var offset = BakedFormat.headerSize
            try file.write([UInt8](repeating: 0, count: BakedFormat.headerSize))  // filled in at the end
            func string(_ text: String) -> Range<UInt32> {
                let start = UInt32(strings.count)
                strings += Array(text.utf8)
                return start..<UInt32(strings.count)
            }
            for entry in entries {
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
                    dependencies: dependencyStart..<UInt32(table.count), kind: entry.kind, bits: entry.bits
                ).encoded()
            }
            var warned: [String: [[String: String]]] = [:]
            for (position, entry) in entries.enumerated() where !entry.warnings.isEmpty {
                warned["\(position)"] = entry.warnings.map { ["code": $0.code.rawValue, "message": $0.message] }
            }
            let warnings =
                warned.isEmpty
                ? 0..<0 : string(String(decoding: try JSONSerialization.data(withJSONObject: warned, options: [.sortedKeys]), as: UTF8.self))
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
                warnings: warnings)
            try file.write(header.encoded(checksum: BakedChecksum.crc32), at: 0)
            try file.commit()
            return length
        }
    }
}

/// The size and CRC-32 of each source file, read once each: a pack shared by many entries is
/// one source. A pack entry's source is its pack; a folder's (a sprite folder atlas) is the
/// list of its files with their sizes.
struct SourceDigests {
    private var known: [String: (size: UInt64, checksum: UInt32)] = [:]

    mutating func digest(of path: String) -> (size: UInt64, checksum: UInt32) {
        let file = Self.file(of: path)
        if let digest = known[file] { return digest }
        let digest = Self.compute(file)
        known[file] = digest
        return digest
    }

    /// The file on disk behind `path`: a pack entry's (`level1.pak#hud.png`) is its pack.
    static func file(of path: String) -> String {
        var search = path.startIndex
        while let hash = path[search...].firstIndex(of: "#") {
            let prefix = String(path[..<hash])
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory), !isDirectory.boolValue { return prefix }
            search = path.index(after: hash)
        }
        // Nothing there: a pack that is gone (`level1.pak#hud.png` names the pack, not a file).
        if !FileManager.default.fileExists(atPath: path), let hash = path.firstIndex(of: "#") { return String(path[..<hash]) }
        return path
    }

    /// The size and CRC-32 of `file`, or of a folder's listing; zeros when it cannot be read.
    static func compute(_ file: String) -> (size: UInt64, checksum: UInt32) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { return (0, 0) }
        if isDirectory.boolValue {
            let names = (try? AssetFiles.local.files(under: file)) ?? []
            var listing: [UInt8] = []
            for name in names {
                let size = (try? FileFacts.of(path: file + "/" + name).size) ?? -1
                listing += Array("\(name)\t\(size)\n".utf8)
            }
            return (UInt64(listing.count), BakedChecksum.crc32(listing))
        }
        guard let bytes = try? AssetFiles.local.read(file) else { return (0, 0) }
        return (UInt64(bytes.count), bytes.withUnsafeBytes(BakedChecksum.crc32))
    }
}

/// `count` and the noun, singular for one.
private func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
