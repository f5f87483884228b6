/// A loader plugin whose files contain other files (a data pack, a zip): their entries can be
/// requested, read and claimed by other plugins like files on disk, addressed as
/// `CONTAINER#ENTRY` (`game.pak#ui/hero.png`). Names inside a container use `/` separators.
///
/// Entries are served through ``AssetFiles``, which every plugin reads with, so a PNG inside a
/// pack decodes with the PNG plugin, and an atlas inside a pack finds its pages beside it. An
/// entry no plugin claims is the container plugin's own to load: its ``LoaderPlugin/load(_:)`` then
/// gets a request whose ``PlannedRequest/file`` has an ``FileFacts/entry`` (a pack delivers such entries as raw bytes).
public protocol ContainerPlugin: LoaderPlugin {
    /// Whether the regular file at `path`, which starts with `header` (at least
    /// ``LoaderPlugin/headerLength`` bytes and 64, fewer only when the file is shorter), is a
    /// container this plugin opens.
    func opensContainer(at path: String, header: [UInt8]) -> Bool

    /// The names of every entry in the container at `container` (regular files only).
    func entryNames(in container: String) throws -> [String]

    /// What loading `entry` costs, in bytes (its stored size, for a compressed entry); throws
    /// ``AssetError/Category/fileNotFound`` when there is no such entry.
    func entrySize(_ entry: String, in container: String) throws -> Int64

    /// ``entrySize(_:in:)``, given what `stat` said of the container just now: a plugin that
    /// caches what it read of a container can key the cache with it instead of asking again
    /// (planning asks once per entry). The default calls ``entrySize(_:in:)``.
    func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64

    /// The bytes of `entry`, refusing more than `limit`; checks `isCancelled` and reports the
    /// fraction read to `progress` as it goes. Large entries belong in `memory`
    /// (``AssetBytes/init(unsafeUninitializedCapacity:memory:initializingWith:)``).
    func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes

    /// The first `count` bytes of `entry` (fewer if it is shorter), for sniffing its content.
    /// The default reads the whole entry; a plugin can stop early.
    func entryPrefix(_ entry: String, in container: String, count: Int) throws -> [UInt8]
}

extension ContainerPlugin {
    public func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64 {
        try entrySize(entry, in: container)
    }

    public func entryPrefix(_ entry: String, in container: String, count: Int) throws -> [UInt8] {
        Array(try readEntry(entry, in: container, limit: .max, memory: .shared, isCancelled: { false }, progress: { _ in }).prefix(count))
    }
}
