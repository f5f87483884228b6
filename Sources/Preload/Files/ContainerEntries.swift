#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entries of containers as a source: a path `CONTAINER#ENTRY` whose container is a regular
/// file some ``ContainerPlugin`` opens (the shortest prefix before a `#` that is one) is that
/// plugin's entry, served by it. ``AssetFiles`` asks it after the coordinator's sources and
/// before the disk.
final class ContainerEntries: AssetSource {
    let containers: [any ContainerPlugin]
    /// Which plugin (by index; -1 for none) opens the file at a path, as it was when `stat`
    /// last saw it: every entry of a pack is located several times while planning and
    /// loading, and its container's header need only be read once.
    private let openers = BoundedCache<ContainerKey, Int>(capacity: 256)
    /// How much of a file the plugins are shown to tell whether they open it: the longest
    /// ``LoaderPlugin/headerLength`` among them (a tar's signature is at byte 257), 64 at least.
    private let headerLength: Int

    private struct ContainerKey: Hashable, Sendable {
        let path: String
        let file: FileFacts
    }

    /// Where a path is inside a container: the container's path, the entry's name, the plugin
    /// that opens it and what `stat` said of the container.
    struct Location {
        let container: String
        let entry: String
        let plugin: any ContainerPlugin
        let file: FileFacts
    }

    /// Entries of the containers `containers` open (asked in order).
    init(containers: [any ContainerPlugin]) {
        self.containers = containers
        headerLength = containers.reduce(64) { max($0, $1.headerLength) }
    }

    /// Whether `path` has a `#`, without which it names no entry: `memchr` over a native
    /// string's bytes (the generic `contains` of its UTF-8 view took ~1,100 instructions per
    /// path of a folder's files; callgrind, issue 50).
    static func mayNameEntry(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "#")), bytes.count) != nil } ?? false
        } ?? path.utf8.contains(UInt8(ascii: "#"))
    }

    /// Where `path` is inside a container, with what `stat` said of the container (or what
    /// `seen` remembers of it); `nil` for a path that is no entry. An entry spelled as `name` is
    /// `name` itself, not a copy.
    func location(of path: String, seen: ContainerFacts? = nil, name: String? = nil) -> Location? {
        guard Self.mayNameEntry(path) else { return nil }
        var search = path.startIndex
        // Scanned as bytes: `#` is ASCII, so each byte index is a character boundary.
        while let hash = path.utf8[search...].firstIndex(of: UInt8(ascii: "#")) {
            let container = String(path[..<hash]), spelled = path[path.utf8.index(after: hash)...]
            let entry = if let name, name.utf8.elementsEqual(spelled.utf8) { name } else { String(spelled) }
            let known = entry.isEmpty ? nil : seen?.facts(of: container)
            if !entry.isEmpty, let file = known ?? (try? FileFacts.of(path: container)), !file.isDirectory {
                let opener = openers.value(for: ContainerKey(path: container, file: file)) {
                    guard let header = try? FileContents.prefix(path: container, count: headerLength) else { return -1 }
                    return containers.firstIndex { $0.opensContainer(at: container, header: header) } ?? -1
                }
                if opener >= 0 {
                    if known == nil { seen?.remember(file, of: container) }
                    return Location(container: container, entry: entry, plugin: containers[opener], file: file)
                }
            }
            search = path.utf8.index(after: hash)
        }
        return nil
    }

    /// ``facts(of:)`` of an entry; `nil` for a path that is none (its container is found once,
    /// not once to tell and once to ask). With `seen`, a container already seen there is not
    /// looked at again (one batch's planning: a pack of 20,000 entries is `stat`ed once). An
    /// entry whose name is `name` (a baked pack's, expanded) keeps that string: one string per
    /// entry for a batch, not one more for each entry's facts.
    func entryFacts(of path: String, seen: ContainerFacts? = nil, name: String? = nil) throws(AssetError) -> FileFacts? {
        guard let location = location(of: path, seen: seen, name: name) else { return nil }
        let (container, entry, plugin, containerFacts) = (location.container, location.entry, location.plugin, location.file)
        do {
            return FileFacts(entry: entry, in: containerFacts, size: try plugin.entrySize(entry, in: container, containerFacts: containerFacts))
        } catch {
            let names = (try? plugin.entryNames(in: container)) ?? []
            let folder = entry.hasSuffix("/") ? entry : entry + "/"
            if names.contains(where: { $0.hasPrefix(folder) }) {
                return FileFacts(entry: entry, in: containerFacts, size: 0, isDirectory: true)
            }
            throw AssetError(path: path, wrapping: error)
        }
    }

    /// Whether `path` is an entry of a container some plugin opens.
    func owns(_ path: String) -> Bool { location(of: path) != nil }

    /// An entry's identity is its container's plus its name; a name that only prefixes entries
    /// (`pack#sprites.atlas`) is a folder.
    func facts(of path: String) throws(AssetError) -> FileFacts {
        guard let facts = try entryFacts(of: path) else { throw Self.noEntry(path) }
        return facts
    }

    /// The entry's bytes, inflated by its plugin (which checks `isCancelled` and reports progress).
    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        guard let location = location(of: path) else { throw Self.noEntry(path) }
        return try read(location, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
    }

    /// ``read(_:limit:memory:isCancelled:progress:)`` of an entry already located.
    func read(_ location: Location, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        try location.plugin.readEntry(
            location.entry, in: location.container, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
    }

    /// The entry's first `count` bytes (its plugin may stop early).
    func prefix(_ path: String, count: Int) throws -> [UInt8] {
        guard let location = location(of: path) else { throw Self.noEntry(path) }
        return try prefix(location, count: count)
    }

    /// ``prefix(_:count:)`` of an entry already located.
    func prefix(_ location: Location, count: Int) throws -> [UInt8] {
        try location.plugin.entryPrefix(location.entry, in: location.container, count: count)
    }

    /// The entries below the folder `folder` names inside its container, hidden ones left out.
    func files(under folder: String) throws -> [String] {
        guard let location = location(of: folder) else { throw Self.noEntry(folder) }
        return try files(under: location)
    }

    /// ``files(under:)`` of a folder already located. A container holds no empty folder: a name
    /// no entry is below is none of its folders (``AssetError/Category/fileNotFound``).
    func files(under location: Location) throws -> [String] {
        let prefix = location.entry.hasSuffix("/") ? location.entry : location.entry + "/"
        let names = try location.plugin.entryNames(in: location.container).filter { $0.hasPrefix(prefix) }
        guard !names.isEmpty else {
            throw AssetError(
                path: location.container + "#" + location.entry, category: .fileNotFound, reason: "no entry of the container is below it")
        }
        return names.map { String($0.dropFirst(prefix.count)) }.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
    }

    private static func noEntry(_ path: String) -> AssetError {
        AssetError(path: path, category: .fileNotFound, reason: "is no entry of a container a plugin opens")
    }
}
