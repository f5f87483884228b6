import Foundation
import Preload
import PreloadBaked

/// Writes a baked pack (`BakedFormat`) from what a batch loaded: every asset of the report, under
/// the names loading gave them, so that loading the pack gives the same store names, results and
/// pixels as loading the sources. Each asset writes its own entry (`BakeableAsset`: core's
/// textures and data files, and the kinds plugins add); the writer stores the textures an asset
/// names as pages as entries of their own, bakes a container (`ContainerAsset`: a `.pak`, a zip,
/// a third party's) as its entries, and holds no code of its own for any kind.
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
        /// An asset whose type has no baked form (it does not conform to `BakeableAsset`).
        case unsupportedKind(name: String, kind: String)
        /// An asset that has a baked form but could not take it as it is (a map whose images
        /// did not load), saying why.
        case entryFailed(name: String, cause: String)
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
                "\(name): its kind, \(kind), has no baked form (its type is not a BakeableAsset: its plugin does not bake it)"
            case .entryFailed(let name, let cause): "\(name): did not bake: \(cause)"
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

    /// Bakes what `report` loaded into a pack at `path`, flagging it with `flags`. Throws
    /// ``BakeError`` (writing nothing) when a source failed, an asset has no baked form or a name
    /// would leave the pack (or, with `textures`, a texture did not encode or, strict, fell below
    /// its quality threshold), and `AtomicFile.WriteError` when the file cannot be written.
    @discardableResult
    public static func write(
        _ report: PreloadReport, to path: String, flags: BakedFormat.Flags = [], textures: TextureBaking? = nil
    ) throws -> Summary {
        var (plan, summary) = try plan(of: report, path: path)
        if let textures { try plan.bakeTextures(textures, into: &summary) }
        return try finish(plan, summary, flags: flags)
    }

    /// ``write(_:to:flags:textures:)`` with `textures` encoded through `cache` (when not `nil`):
    /// each texture's GPU entry taken from the cache when it holds one, else encoded and
    /// written to it; ``Summary/cache`` says what the cache gave. A cache that fails never
    /// fails the bake (``BakeCacheReport/warnings``).
    @discardableResult
    public static func write(
        _ report: PreloadReport, to path: String, flags: BakedFormat.Flags = [], textures: TextureBaking, cache: BakeCache?
    ) async throws -> Summary {
        var (plan, summary) = try plan(of: report, path: path)
        if let cache {
            try await plan.bakeTextures(textures, cache: cache, shard: nil, into: &summary)
        } else {
            try plan.bakeTextures(textures, into: &summary)
        }
        return try finish(plan, summary, flags: flags)
    }

    /// Encodes `shard`'s slice of what `report` loaded into `cache` (the entries of that slice
    /// the cache lacks) and writes no pack: `preload bake --shard I/N`. A bake of the same
    /// report through the same cache afterwards (``write(_:to:flags:textures:cache:)``), once
    /// every shard has run, encodes nothing. ``Summary/gpu`` lists the textures encoded,
    /// ``Summary/cache`` the counts; ``Summary/path`` is empty.
    public static func bakeShard(_ report: PreloadReport, _ shard: BakeShard, textures: TextureBaking, cache: BakeCache) async throws -> Summary {
        var (plan, summary) = try plan(of: report, path: "")
        try await plan.bakeTextures(textures, cache: cache, shard: shard, into: &summary)
        return summary
    }

    /// The entries of what `report` loaded, and a summary of a pack at `path` counting nothing
    /// yet.
    private static func plan(of report: PreloadReport, path: String) throws -> (BakePlan, Summary) {
        let errors = report.errors
        guard errors.isEmpty else { throw BakeError.sourcesFailed(errors) }
        var plan = BakePlan()
        var summary = Summary(path: path)
        for group in report.resultsByCaller {
            let caller = group[0]
            if caller.outcome.asset is any ContainerAsset {
                // A container's loaded entries (a pack's, a zip's) become entries of their own,
                // named as loading it names them; a container among them is baked as its own.
                summary.unpackedPacks.append(caller.request.path)
                for result in group.dropFirst() where !(result.outcome.asset is any ContainerAsset) {
                    try plan.add(result, isDependency: false, group: group)
                }
                continue
            }
            try plan.add(caller, isDependency: false, group: group)
        }
        guard !plan.entries.isEmpty else { throw BakeError.empty }
        return (plan, summary)
    }

    /// Counts `plan`'s entries into `summary` and writes the pack.
    private static func finish(_ plan: BakePlan, _ summary: Summary, flags: BakedFormat.Flags) throws -> Summary {
        var summary = summary
        for entry in plan.entries {
            if entry.bits.contains(.atlasPage) { summary.packedPages += 1 } else { summary.count(type(of: entry.asset)) }
        }
        summary.bytes = try plan.write(to: summary.path, flags: flags)
        return summary
    }

    /// Whether `name` may name an entry: relative, without empty, `.` or `..` components or NUL.
    public static func isValidName(_ name: String) -> Bool { BakedIndex.staysInside(name) }
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
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
