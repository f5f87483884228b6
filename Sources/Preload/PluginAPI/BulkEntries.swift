/// What a ``BulkExpandingPlugin`` tells planning, at once, of the assets one file stands for:
/// a column per fact, a row per entry, in the order the caller should find them.
///
/// Entry `i` is requested as `container#names[i]` (as ``ExpandingPlugin/expand(_:)`` would
/// request it), stored under `storeNames[i]` (its name, when `storeNames` is empty), weighs
/// `sizes[i]` in the batch's progress and loads as `positions[i]` (`i`, when `positions` is
/// empty) through the plugin `loaders[i]` names (the expanding plugin, when `loaders` is empty).
/// The columns given must each have one value per name; the batch fails the file's request,
/// naming the column, when one does not.
public struct BulkEntries: Sendable {
    /// The file's path, as requested: its entries' paths are this, `#`, and their names.
    public var container: String
    /// Each entry's name inside the file.
    public var names: [String]
    /// The name each entry is stored and reported under; empty: its name.
    public var storeNames: [String]
    /// Each entry's size in bytes: what its file size would be (its work, its share of
    /// progress, and what it counts against a memory budget unless ``decodedBytes`` says more).
    public var sizes: [Int64]
    /// The plugin's own number for each entry (its position in the file's index), handed back to
    /// ``BulkEntryRun/loadEach(_:)``; empty: the entry's index in these columns.
    public var positions: [Int]
    /// What each entry holds once loaded, when the plugin knows it cheaply (what
    /// ``LoaderPlugin/estimatedDecodedBytes(header:)`` would say of it), for a memory budget and
    /// progress weighted by decoded bytes; empty: unknown (its size is used, as for a file).
    public var decodedBytes: [Int]
    /// The identifier of the plugin that loads each entry (an image inside a zip: the image
    /// plugin), or ``claimedAsFile``; empty: the expanding plugin. An entry another plugin loads
    /// is planned and loaded as that plugin's file (its own dependencies asked of it), only found
    /// without a lookup.
    public var loaders: [String]
    /// The options each entry is requested with; `nil`: those of the request that named the file.
    public var options: AssetOptions?

    /// The value of ``loaders`` for an entry loaded by whichever plugin claims it as a file inside
    /// the container (by the batch's claim rule: its extension, else its first bytes, else the
    /// container's plugin): what an entry of a zip is, whose plugin only the batch knows. For
    /// the dependencies a ``BulkDependingPlugin`` lists; an entry a ``BulkExpandingPlugin``
    /// lists with it fails, naming the plugin, as one naming a plugin not registered does.
    public static let claimedAsFile = ""
    /// The requests an entry the expanding plugin loads depends on, by its index in these
    /// columns: what ``LoaderPlugin/dependencies(of:)`` says of its request (most entries: none).
    public var dependencies: [Int: [AssetRequest]]

    /// The entries `names` of `container`, each of `sizes[i]` bytes; the other columns as their
    /// properties say.
    public init(
        container: String, names: [String], sizes: [Int64], storeNames: [String] = [], positions: [Int] = [], decodedBytes: [Int] = [],
        loaders: [String] = [], dependencies: [Int: [AssetRequest]] = [:], options: AssetOptions? = nil
    ) {
        self.options = options
        self.container = container
        self.names = names
        self.storeNames = storeNames
        self.sizes = sizes
        self.positions = positions
        self.decodedBytes = decodedBytes
        self.loaders = loaders
        self.dependencies = dependencies
    }

    /// Whether entry `index` is loaded by the plugin that claims it as a file (``claimedAsFile``).
    func isClaimedAsFile(_ index: Int) -> Bool { !loaders.isEmpty && loaders[index] == Self.claimedAsFile }

    /// How many entries.
    public var count: Int { names.count }

    /// The first column that does not have one value per name, if any.
    var mismatchedColumn: String? {
        let columns: [(String, Int, Bool)] = [
            ("sizes", sizes.count, false), ("storeNames", storeNames.count, true), ("positions", positions.count, true),
            ("decodedBytes", decodedBytes.count, true), ("loaders", loaders.count, true),
        ]
        if let column = columns.first(where: { $0.1 != names.count && !($0.2 && $0.1 == 0) }) { return column.0 }
        return dependencies.keys.contains { !names.indices.contains($0) } ? "dependencies" : nil
    }
}
