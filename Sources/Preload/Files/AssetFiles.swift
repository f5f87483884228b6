import Foundation

/// Files as plugins see them, from every source: files a coordinator's ``AssetSource``s own
/// (`mem://…`), entries inside containers (`game.pak#ui/hero.png`) served by
/// ``ContainerPlugin``s, and files and folders on disk (``DiskSource``), asked in that order.
/// Plugins read through the ``LoadContext/files`` (or ``PlannedRequest/files``) they are given
/// instead of the disk directly, so that what they load (an atlas and its pages) can live inside
/// a pack, or in any source.
public struct AssetFiles: Sendable {
    /// The sources and container plugins, and what the containers opened; `nil` without any,
    /// so that copying the files of a request (once per asset) touches no shared reference count.
    private let storage: Storage?
    /// For a remote file's plugin: the local copy, the one file (with its entries) it may read;
    /// anything else it names is beside its URL, on the server, not on this disk.
    private var confinement: String?

    private final class Storage: Sendable {
        /// The coordinator's sources, in order.
        let sources: [any AssetSource]
        let containers: [any ContainerPlugin]
        /// Which plugin (by index; -1 for none) opens the file at a path, as it was when `stat`
        /// last saw it: every entry of a pack is located several times while planning and
        /// loading, and its container's header need only be read once.
        let openers = BoundedCache<ContainerKey, Int>(capacity: 256)

        init(sources: [any AssetSource], containers: [any ContainerPlugin]) {
            self.sources = sources
            self.containers = containers
        }
    }

    /// Whether a path may be served by something other than the disk: a source, or a container
    /// plugin (without either, every path is a file on disk).
    package var servesBeyondDisk: Bool { storage != nil }

    /// The sources given to ``serving(_:)``, in order.
    package var sources: [any AssetSource] { storage?.sources ?? [] }

    private struct ContainerKey: Hashable, Sendable {
        let path: String
        let file: FileFacts
    }

    /// Files on disk, with entries of containers opened by `containers` (in order) readable as `CONTAINER#ENTRY`.
    package init(containers: [any ContainerPlugin] = []) {
        self.init(sources: [], containers: containers)
    }

    private init(sources: [any AssetSource], containers: [any ContainerPlugin]) {
        storage = sources.isEmpty && containers.isEmpty ? nil : Storage(sources: sources, containers: containers)
    }

    /// The disk only.
    public static let local = AssetFiles()

    /// These files, with the paths `sources` own served by them (the first that owns a path).
    package func serving(_ sources: [any AssetSource]) -> AssetFiles {
        var served = AssetFiles(sources: sources, containers: storage?.containers ?? [])
        served.confinement = confinement
        return served
    }

    /// The source that owns `path`, if one of the given sources does (else it is an entry or
    /// on disk).
    package func source(owning path: String) -> (any AssetSource)? {
        guard let storage else { return nil }
        for source in storage.sources where source.owns(path) { return source }
        return nil
    }

    /// These files, of which only `copy` (a remote file's local copy) and its entries
    /// (`COPY#ENTRY`) can be read: what a plugin reading a remote file while planning sees, so
    /// that a name in the file (an absolute path, a `../`) never reads this machine's files.
    package func confined(to copy: String) -> AssetFiles {
        var confined = self
        confined.confinement = copy
        return confined
    }

    /// Refuses `path` when these files are confined to another file.
    private func checkConfinement(_ path: String) throws(AssetError) {
        guard let copy = confinement, path != copy, !path.hasPrefix(copy + "#") else { return }
        throw AssetError(
            path: path, category: .unsupported,
            reason: "is named inside a remote file, which may read only files it declares as dependencies (fetched from beside its URL), "
                + "not files on this machine")
    }

    /// Where `path` is inside a container: the container's path, the entry's name, and the
    /// plugin that opens it; `nil` for a path on disk. The container is the shortest prefix
    /// before a `#` that is a regular file some container plugin opens.
    package func locate(_ path: String) -> (container: String, entry: String, plugin: any ContainerPlugin)? {
        location(of: path).map { ($0.container, $0.entry, $0.plugin) }
    }

    /// ``locate(_:)``, with what `stat` said of the container (or what `seen` remembers of it).
    private func location(
        of path: String, seen: ContainerFacts? = nil
    ) -> (container: String, entry: String, plugin: any ContainerPlugin, file: FileFacts)? {
        guard let storage, !storage.containers.isEmpty, path.utf8.contains(UInt8(ascii: "#")) else { return nil }
        let containers = storage.containers
        var search = path.startIndex
        // Scanned as bytes: `#` is ASCII, so each byte index is a character boundary.
        while let hash = path.utf8[search...].firstIndex(of: UInt8(ascii: "#")) {
            let container = String(path[..<hash]), entry = String(path[path.utf8.index(after: hash)...])
            let known = entry.isEmpty ? nil : seen?.facts(of: container)
            if !entry.isEmpty, let file = known ?? (try? FileFacts.of(path: container)), !file.isDirectory {
                let opener = storage.openers.value(for: ContainerKey(path: container, file: file)) {
                    guard let header = try? FileContents.prefix(path: container, count: 64) else { return -1 }
                    return containers.firstIndex { $0.opensContainer(at: container, header: header) } ?? -1
                }
                if opener >= 0 {
                    if known == nil { seen?.remember(file, of: container) }
                    return (container, entry, containers[opener], file)
                }
            }
            search = path.utf8.index(after: hash)
        }
        return nil
    }

    /// What `stat` would say, for entries too: an entry's identity is its container's plus its
    /// name; a name that only prefixes entries (`pack#sprites.atlas`) is a folder.
    public func facts(of path: String) throws(AssetError) -> FileFacts {
        try checkConfinement(path)
        if let served = try servedFacts(of: path) { return served }
        return try DiskSource().facts(of: path)
    }

    /// ``facts(of:)`` for a path a source owns or an entry inside a container; `nil` for a path
    /// on disk (not looked at): where a container is found once, not once to tell and once to
    /// ask. With `seen`, a container already seen there is not looked at again (one batch's
    /// planning: a pack of 20,000 entries is `stat`ed once, not 20,000 times).
    package func servedFacts(of path: String, seen: ContainerFacts? = nil) throws(AssetError) -> FileFacts? {
        if let source = source(owning: path) { return try source.facts(of: path) }
        guard let (container, entry, plugin, containerFacts) = location(of: path, seen: seen) else { return nil }
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

    /// The whole file or entry, refusing more than `limit` bytes. Reading an entry (inflating
    /// it) checks `isCancelled` and reports the fraction done to `progress`; a file on disk is
    /// one `read`.
    public func read(
        _ path: String, limit: Int = .max, memory: AssetMemory = .shared, isCancelled: () -> Bool = { false },
        progress: (Double) -> Void = { _ in }
    ) throws -> AssetBytes {
        try checkConfinement(path)
        do {
            if let source = source(owning: path) {
                return try source.read(path, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
            }
            guard let (container, entry, plugin) = locate(path) else {
                return try DiskSource().read(path, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
            }
            return try plugin.readEntry(entry, in: container, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw AssetError(path: path, wrapping: error)
        }
    }

    /// The first `count` bytes (fewer if the file is shorter), for sniffing.
    public func prefix(_ path: String, count: Int) throws -> [UInt8] {
        try checkConfinement(path)
        do {
            if let source = source(owning: path) { return try source.prefix(path, count: count) }
            guard let (container, entry, plugin) = locate(path) else { return try DiskSource().prefix(path, count: count) }
            return try plugin.entryPrefix(entry, in: container, count: count)
        } catch {
            throw AssetError(path: path, wrapping: error)
        }
    }

    /// The regular files below `folder` (on disk, or a folder inside a container), as paths
    /// relative to it with `/` separators, sorted; hidden files and folders are left out. On
    /// disk nothing else is left out silently: a FIFO, device or socket, a dangling symbolic
    /// link, a folder that cannot be listed and a name that is not UTF-8 throw, naming it.
    public func files(under folder: String) throws -> [String] {
        try checkConfinement(folder)
        if let source = source(owning: folder) { return try source.files(under: folder) }
        if let (container, entry, plugin) = locate(folder) {
            let prefix = entry.hasSuffix("/") ? entry : entry + "/"
            return try plugin.entryNames(in: container).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
                .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
        }
        return try DiskSource().files(under: folder)
    }
}
