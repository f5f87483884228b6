/// What a ``BulkExpandingPlugin`` tells planning, at once, of the assets one file stands for:
/// a column per fact, a row per entry, in the order the caller should find them.
///
/// Entry `i` is requested as `container#names[i]` (as ``ExpandingPlugin/expand(_:)`` would
/// request it), stored under `storeNames[i]` (its name, when `storeNames` is empty), weighs
/// `sizes[i]` in the batch's progress and loads as `positions[i]` (`i`, when `positions` is
/// empty) through the plugin `loaders[i]` names (the expanding plugin, when `loaders` is empty).
/// The columns given must each have one value per name; the batch fails the file's request,
/// naming the column, when one does not.
///
/// The names may be given as a column (``names``) or by position
/// (``init(container:count:name:sizes:storeNames:positions:decodedBytes:loaders:dependencies:options:)``):
/// a plugin whose file holds its names (a baked pack's index) then hands none over, and the batch
/// reads an entry's name only when it needs it (its `FILE#NAME` path in a result or an event):
/// a file of a million entries costs the batch no string per entry.
public struct BulkEntries: Sendable {
    /// The file's path, as requested: its entries' paths are this, `#`, and their names.
    public var container: String
    /// Each entry's name inside the file. For entries named by position, reading this makes
    /// every name (``name(at:)`` makes one), and changing it names them by this column instead.
    public var names: [String] {
        get { naming.map { naming in (0..<naming.count).map(naming.name) } ?? column }
        _modify {
            if let naming {
                column = (0..<naming.count).map(naming.name)
                self.naming = nil
            }
            yield &column
        }
    }
    /// The names as a column (empty while ``naming`` names the entries).
    private var column: [String]
    /// How many entries there are and how to name one, when they are named by position.
    private var naming: Naming?
    private struct Naming: Sendable {
        let count: Int
        let name: @Sendable (Int) -> String
    }
    /// The name each entry is stored and reported under; empty: its name.
    public var storeNames: [String]
    /// Each entry's size in bytes: what its file size would be (its work, its share of
    /// progress, and what it counts against a memory budget unless ``decodedBytes`` says more).
    /// For entries sized by position, reading this makes every size (``size(at:)`` reads one),
    /// and changing it sizes them by this column instead.
    public var sizes: [Int64] {
        get { sizing.map { size in (0..<count).map(size) } ?? sizeColumn }
        _modify {
            if let sizing {
                sizeColumn = (0..<count).map(sizing)
                self.sizing = nil
            }
            yield &sizeColumn
        }
    }
    /// The sizes as a column (empty while ``sizing`` gives them).
    private var sizeColumn: [Int64]
    /// How to read an entry's size, when they are given by position.
    private var sizing: (@Sendable (Int) -> Int64)?
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
        column = names
        self.storeNames = storeNames
        sizeColumn = sizes
        self.positions = positions
        self.decodedBytes = decodedBytes
        self.loaders = loaders
        self.dependencies = dependencies
    }

    /// Whether entry `index` is loaded by the plugin that claims it as a file (``claimedAsFile``).
    func isClaimedAsFile(_ index: Int) -> Bool { !loaders.isEmpty && loaders[index] == Self.claimedAsFile }

    /// `count` entries of `container` named by position: `name(i)` is entry `i`'s name (read
    /// when the batch needs it, maybe more than once and from any thread: it must give the same
    /// name each time), each of `sizes[i]` bytes; the other columns as their properties say.
    public init(
        container: String, count: Int, name: @escaping @Sendable (_ index: Int) -> String, sizes: [Int64], storeNames: [String] = [],
        positions: [Int] = [], decodedBytes: [Int] = [], loaders: [String] = [], dependencies: [Int: [AssetRequest]] = [:],
        options: AssetOptions? = nil
    ) {
        self.init(
            container: container, names: [], sizes: sizes, storeNames: storeNames, positions: positions, decodedBytes: decodedBytes,
            loaders: loaders, dependencies: dependencies, options: options)
        naming = Naming(count: max(count, 0), name: name)
    }

    /// `count` entries of `container` named and sized by position: `name(i)` is entry `i`'s
    /// name and `size(i)` its size in bytes (each read when the batch needs it, maybe more than
    /// once and from any thread: they must give the same value each time); the other columns as
    /// their properties say. A plugin whose file's index holds both (a baked pack) then hands the
    /// batch no column of a value per entry.
    public init(
        container: String, count: Int, name: @escaping @Sendable (_ index: Int) -> String, size: @escaping @Sendable (_ index: Int) -> Int64,
        storeNames: [String] = [], positions: [Int] = [], decodedBytes: [Int] = [], loaders: [String] = [],
        dependencies: [Int: [AssetRequest]] = [:], options: AssetOptions? = nil
    ) {
        self.init(
            container: container, count: count, name: name, sizes: [], storeNames: storeNames, positions: positions,
            decodedBytes: decodedBytes, loaders: loaders, dependencies: dependencies, options: options)
        sizing = size
    }

    /// How many entries.
    public var count: Int { naming?.count ?? column.count }

    /// The size of entry `index` (`0..<count`), without reading the others'.
    public func size(at index: Int) -> Int64 { sizing?(index) ?? sizeColumn[index] }

    /// The name of entry `index` (`0..<count`), without making the others'.
    public func name(at index: Int) -> String { naming?.name(index) ?? column[index] }

    /// The first column that does not have one value per name, if any.
    var mismatchedColumn: String? {
        let columns: [(String, Int, Bool)] = [
            ("sizes", sizing == nil ? sizeColumn.count : count, false), ("storeNames", storeNames.count, true), ("positions", positions.count, true),
            ("decodedBytes", decodedBytes.count, true), ("loaders", loaders.count, true),
        ]
        if let column = columns.first(where: { $0.1 != count && !($0.2 && $0.1 == 0) }) { return column.0 }
        return dependencies.keys.contains { !(0..<count).contains($0) } ? "dependencies" : nil
    }
}
