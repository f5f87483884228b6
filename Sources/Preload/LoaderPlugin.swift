/// A loader plugin: turns files of one format into assets.
///
/// A plugin says which files it **claims** (by extension, and by magic bytes for files whose
/// extension says nothing), which other requests a file **depends on** (an atlas needs its
/// pages), and makes the ``AssetOperation`` that loads one file. The coordinator does the rest:
/// merging duplicate requests, ordering dependencies, progress, hooks, failure policy.
///
/// A minimal plugin, written only against the public API:
///
/// ```swift
/// struct TextLoader: LoaderPlugin {
///     let identifier = "text"
///     let assetKind = AssetKind(rawValue: "text")
///     let fileExtensions: Set<String> = ["txt"]
///     func makeOperation(for request: PlannedRequest) -> AssetOperation {
///         ClosureAssetOperation(request: request) { context in
///             DataAsset(bytes: try context.readContents())
///         }
///     }
/// }
/// var registry = PluginRegistry()
/// try registry.register(TextLoader())
/// ```
///
/// Plugins are values shared between threads, so they must be `Sendable`; per-load state
/// belongs in the operation.
public protocol LoaderPlugin: Sendable {
    /// A short, stable, unique name ("png"), used in reports and to force a plugin per request.
    var identifier: String { get }

    /// The kind of asset this plugin produces.
    var assetKind: AssetKind { get }

    /// File extensions this plugin claims, lowercase, without the dot ("png").
    var fileExtensions: Set<String> { get }

    /// Whether a directory whose name carries one of ``fileExtensions`` is this plugin's to load
    /// (a sprite folder `hero.atlas/`). Directories are claimed by name only, never sniffed.
    /// Defaults to `false`: a directory is then refused as "is a directory".
    var acceptsDirectories: Bool { get }

    /// How many leading bytes ``matchesSignature(_:)`` and ``estimatedDecodedBytes(header:)``
    /// want to see. 0 (the default) means the plugin does not sniff content.
    var headerLength: Int { get }

    /// Whether `header` (the file's first ``headerLength`` bytes, fewer if the file is short)
    /// looks like this plugin's format. Consulted only for files no extension claims.
    func matchesSignature(_ header: [UInt8]) -> Bool

    /// How many bytes the decoded asset will hold, read from the header when that is cheap, for
    /// progress weighted by decoded size. `nil` means unknown; the file size is used instead.
    func estimatedDecodedBytes(header: [UInt8]) -> Int?

    /// The other assets `request` needs loaded first. Their operations become real `Operation`
    /// dependencies, and their results are available through ``LoadContext/dependency(_:)``.
    /// Throwing fails `request` with the error, before anything is loaded.
    func dependencies(of request: PlannedRequest) throws -> [AssetRequest]

    /// How much work loading `request` itself is, in the units of the batch's progress (bytes),
    /// when its file size says little: a sprite folder's size is a directory entry's, while its
    /// packing scales with its sprites. Called after ``dependencies(of:)``. `nil` (the default)
    /// uses the file size.
    func estimatedWork(for request: PlannedRequest) -> Int64?

    /// Whether this plugin's operations run even when some dependencies failed, reading each
    /// one's fate with ``LoadContext/outcome(of:)`` (a pack reports its entries one by one).
    /// The default, `false`, fails the request with its first failed dependency's cause.
    var toleratesFailedDependencies: Bool { get }

    /// Makes the operation that loads `request`. Called once per distinct file and options.
    func makeOperation(for request: PlannedRequest) -> AssetOperation
}

extension LoaderPlugin {
    public var acceptsDirectories: Bool { false }
    public var headerLength: Int { 0 }
    public func matchesSignature(_ header: [UInt8]) -> Bool { false }
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? { nil }
    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] { [] }
    public func estimatedWork(for request: PlannedRequest) -> Int64? { nil }
    public var toleratesFailedDependencies: Bool { false }
}

/// A request after planning: the file was found, a plugin claimed it, and its size is known.
public struct PlannedRequest: Hashable, Sendable, CustomStringConvertible {
    /// The request as the caller made it (for a merged load, the first one).
    public let request: AssetRequest
    /// The identifier of the plugin that loads it.
    public let plugin: String
    /// What `stat` said about the file (or the container about the entry).
    public let file: FileFacts
    /// How to read this file and the files it mentions: disk, or entries inside containers.
    public let files: AssetFiles

    public init(request: AssetRequest, plugin: String, file: FileFacts, files: AssetFiles = .local) {
        self.request = request
        self.plugin = plugin
        self.file = file
        self.files = files
    }

    /// The file, as the request named it.
    public var path: String { request.path }
    /// Loader options.
    public var options: AssetOptions { request.options }

    public var description: String { request.description }

    public static func == (lhs: PlannedRequest, rhs: PlannedRequest) -> Bool {
        lhs.request == rhs.request && lhs.plugin == rhs.plugin && lhs.file == rhs.file
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(request)
        hasher.combine(plugin)
        hasher.combine(file)
    }
}
