import Preload
import PreloadBaked

/// Whether a baked pack is current with its sources: each entry's source read again and compared
/// with the size and CRC-32 the pack recorded (stale, or missing when it is gone), and, given
/// the requests the sources expand to, what they hold that the pack lacks (new). For asset CI and
/// build systems: `preload bake check` prints ``problems`` and exits 1 when there are any.
///
/// ```swift
/// import Preload
/// import PreloadAuthoring
/// import PreloadBaked
///
/// let mapping = try FileMapping(path: "level1.bake")
/// let index = try mapping.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
/// let check = BakeCheck(index: index, sources: [.folder("assets")])
/// if !check.isCurrent { check.problems.forEach { print($0) } }
/// ```
public struct BakeCheck: Sendable {
    /// One line per stale, missing or new entry, sorted by name: `stale   hero.png (sprites/hero.png changed)`;
    /// after ``lookUpStale(in:baking:coordinator:)``, a stale GPU texture a re-bake takes from the
    /// bake cache says so: `stale   hero.png (sprites/hero.png changed; in the bake cache: a re-bake encodes nothing)`.
    public internal(set) var problems: [String]
    /// How many entries the pack has, pages made at load included (as `preload bake` counts
    /// them); a packed page made from its asset's own file is checked as that asset; one made
    /// from another file (an animation repacked from an Aseprite export's sheet) is checked
    /// against that file.
    public let entryCount: Int
    /// How many are stale, missing and new.
    public let stale: Int, missing: Int, new: Int
    /// How many stale entries a re-bake takes from the bake cache (set by
    /// ``lookUpStale(in:baking:coordinator:)``; 0 before).
    public internal(set) var staleInCache = 0
    /// The stale GPU texture entries (the ones a bake cache holds), by name, with their sources' paths.
    let staleGPUTextures: [String: String]

    /// Whether every entry is current and no source is new.
    public var isCurrent: Bool { problems.isEmpty }

    /// Compares `index` with the files on disk, and with `sources` (the requests the sources
    /// expand to: a folder's files, a manifest's entries) for new ones.
    public init(index: BakedIndex, sources: [AssetRequest] = []) {
        var digests = SourceDigests()
        var stale: [String] = [], missing: [String] = [], new: [String] = []
        var staleGPUTextures: [String: String] = [:]
        // A page made at load from its asset's own source is that asset's to check; one made
        // from another file (`BakedPage.madeFrom`) is checked against it.
        let owners = Set(index.entries.filter { !$0.record.bits.contains(.atlasPage) }.map(\.sourcePath))
        let entries = index.entries.filter { !$0.record.bits.contains(.atlasPage) || !owners.contains($0.sourcePath) }
        for entry in entries {
            let file = SourceDigests.file(of: entry.sourcePath)
            let now = digests.digest(of: entry.sourcePath)
            if now == (0, 0) && entry.record.sourceSize != 0 {
                missing.append("missing \(entry.name) (\(file) is gone)")
            } else if now.size != entry.record.sourceSize || now.checksum != entry.record.sourceChecksum {
                stale.append("stale   \(entry.name) (\(file) changed)")
                if entry.kind == Texture.gpuKind { staleGPUTextures[entry.name] = entry.sourcePath }
            }
        }
        let sourceFiles = Set(index.entries.map { SourceDigests.file(of: $0.sourcePath) })
        for request in sources where index.entry(named: request.name) == nil && !sourceFiles.contains(request.path) {
            new.append("new     \(request.name) (not in the pack)")
        }
        problems = (stale + missing + new).sorted { $0.dropFirst(8) < $1.dropFirst(8) }
        self.staleGPUTextures = staleGPUTextures
        entryCount = index.entries.count
        (self.stale, self.missing, self.new) = (stale.count, missing.count, new.count)
    }

    /// `level.bake: 14 entries, all current` or `level.bake: 14 entries, 2 stale, 1 missing, 1 new`.
    public func headline(pack: String) -> String {
        let entries = "\(entryCount) entr\(entryCount == 1 ? "y" : "ies")"
        guard !isCurrent else { return "\(pack): \(entries), all current" }
        var parts: [String] = []
        if stale > 0 { parts.append("\(stale) stale" + (staleInCache > 0 ? " (\(staleInCache) in the bake cache)" : "")) }
        if missing > 0 { parts.append("\(missing) missing") }
        if new > 0 { parts.append("\(new) new") }
        return "\(pack): \(entries), " + parts.joined(separator: ", ")
    }
}
