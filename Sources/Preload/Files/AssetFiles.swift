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
        /// The entries of the registered containers; `nil` without a container plugin.
        let entries: ContainerEntries?

        init(sources: [any AssetSource], containers: [any ContainerPlugin]) {
            self.sources = sources
            entries = containers.isEmpty ? nil : ContainerEntries(containers: containers)
        }
    }

    /// Whether a path may be served by something other than the disk: a source, or a container
    /// plugin (without either, every path is a file on disk).
    package var servesBeyondDisk: Bool { storage != nil }

    /// The sources given to ``serving(_:)``, in order.
    package var sources: [any AssetSource] { storage?.sources ?? [] }

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
        var served = AssetFiles(sources: sources, containers: storage?.entries?.containers ?? [])
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

    /// Where `path` is inside a container (``ContainerEntries``); `nil` for a path on disk.
    private func location(of path: String) -> ContainerEntries.Location? {
        storage?.entries?.location(of: path)
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
    /// planning: a pack of 20,000 entries is `stat`ed once, not 20,000 times). `name` is the
    /// request's: an entry named so keeps that string, not a copy of the path's end.
    package func servedFacts(of path: String, seen: ContainerFacts? = nil, name: String? = nil) throws(AssetError) -> FileFacts? {
        if let source = source(owning: path) { return try source.facts(of: path) }
        return try storage?.entries?.entryFacts(of: path, seen: seen, name: name)
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
            if let entries = storage?.entries, let location = entries.location(of: path) {
                return try entries.read(location, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
            }
            return try DiskSource().read(path, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
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
            if let entries = storage?.entries, let location = entries.location(of: path) { return try entries.prefix(location, count: count) }
            return try DiskSource().prefix(path, count: count)
        } catch {
            throw AssetError(path: path, wrapping: error)
        }
    }

    /// The regular files below `folder` (as the source that owns it lists them, a folder inside a
    /// container, or on disk), as paths relative to it with `/` separators, sorted; hidden files
    /// and folders are left out. A source that lists no folders throws, naming itself. On
    /// disk nothing else is left out silently: a FIFO, device or socket, a dangling symbolic
    /// link, a folder that cannot be listed and a name that is not UTF-8 throw, naming it.
    public func files(under folder: String) throws -> [String] {
        try checkConfinement(folder)
        if let source = source(owning: folder) { return try source.files(under: folder) }
        if let entries = storage?.entries, let location = entries.location(of: folder) { return try entries.files(under: location) }
        return try DiskSource().files(under: folder)
    }
}
