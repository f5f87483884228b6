/// A loader plugin: turns files of one format into assets.
///
/// A plugin says which files it **claims** (by extension, and by magic bytes for files whose
/// extension says nothing), which other requests a file **depends on** (an atlas needs its
/// pages), and **loads** one file: ``load(_:)`` reads it through the ``LoadContext`` and returns
/// the asset. The coordinator does the rest: merging duplicate requests, ordering dependencies,
/// running small files together in one load (an `Operation`), progress, hooks, failure policy.
///
/// A minimal plugin, written only against the public API:
///
/// ```swift
/// import Preload
///
/// struct TextLoader: LoaderPlugin {
///     let identifier = "text"
///     let assetKind = AssetKind(rawValue: "text")
///     let fileExtensions: Set<String> = ["txt"]
///     func load(_ context: LoadContext) throws -> any Asset {
///         DataAsset(bytes: try context.readContents())
///     }
/// }
/// var registry = PluginRegistry()
/// try registry.register(TextLoader())
/// let coordinator = PreloadCoordinator(registry: registry)
/// ```
///
/// Plugins are values shared between threads, so they must be `Sendable`; per-load state
/// belongs on the stack of ``load(_:)``.
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
    /// looks like this plugin's format: what the default ``signatureMatch(_:)`` answers with.
    func matchesSignature(_ header: [UInt8]) -> Bool

    /// What `prefix`, the file's first bytes, says about whether it is this plugin's: its first
    /// ``headerLength`` bytes (fewer if the file is short), then, each time the answer is
    /// ``SignatureMatch/undecided``, a longer prefix, up to ``signatureReach`` bytes. The claim
    /// asks this, not ``matchesSignature(_:)``; the default answers with ``matchesSignature(_:)``.
    /// Implement it for a format whose telling marks can lie past any fixed header (JSON, whose
    /// keys come in any order), so that a file that is not this plugin's is passed on rather
    /// than claimed and failed.
    func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch

    /// The most bytes of a file ``signatureMatch(_:)`` is shown when its answers stay
    /// ``SignatureMatch/undecided``: the bound on what claiming one file reads. Defaults to
    /// ``headerLength``.
    var signatureReach: Int { get }

    /// How many bytes the decoded asset will hold, read from the header when that is cheap, for
    /// progress weighted by decoded size. `nil` means unknown; the file size is used instead.
    func estimatedDecodedBytes(header: [UInt8]) -> Int?

    /// The other assets `request` needs loaded first. They load before it (their operations
    /// become real `Operation` dependencies of its own), and their results are available
    /// through ``LoadContext/dependency(_:)``.
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

    /// Loads `context.request` and returns the asset, or throws why it cannot (the error is
    /// reported with the file's path). Runs on one of the coordinator's worker threads, possibly
    /// right after other small files of the same batch; long work should call
    /// ``LoadContext/checkCancellation()`` every so often. Called once per distinct file and
    /// options.
    func load(_ context: LoadContext) throws -> any Asset

    /// Whether this plugin's loads finish later, elsewhere (a callback API, another thread):
    /// the coordinator then calls ``load(_:completion:)`` instead of ``load(_:)``. Defaults to
    /// `false`.
    var loadsAsynchronously: Bool { get }

    /// Starts loading `context.request` and calls `completion` exactly once, from any thread,
    /// when it is done (later calls are ignored). Only called when ``loadsAsynchronously`` is
    /// `true`; the default calls ``load(_:)``.
    func load(_ context: LoadContext, completion: @escaping @Sendable (Result<any Asset, any Error>) -> Void)

    /// This plugin as a ``ContainerPlugin``, if it is one; `nil` otherwise. Nothing to
    /// implement: a plugin that conforms gets `self` from the protocol's extension, chosen when
    /// its conformance is compiled, so that the registry learns what each plugin can do without
    /// a run-time conformance lookup (`as? any ContainerPlugin` scans every conformance record
    /// of the process the first time a type is asked: ~256,000 instructions a plugin and
    /// protocol at start). A type that conforms conditionally (`extension MyLoader:
    /// ContainerPlugin where ...`) implements it itself (`self as? any ContainerPlugin`); a
    /// conformance added in another module than the type's `LoaderPlugin` conformance is not
    /// seen.
    var asContainer: (any ContainerPlugin)? { get }

    /// This plugin as a ``PlanningPlugin``, if it is one; nothing to implement (see
    /// ``asContainer``).
    var asPlanning: (any PlanningPlugin)? { get }

    /// This plugin as an ``ExpandingPlugin``, if it is one; nothing to implement (see
    /// ``asContainer``).
    var asExpanding: (any ExpandingPlugin)? { get }

    /// This plugin as a ``BulkDependingPlugin``, if it is one; nothing to implement (see
    /// ``asContainer``).
    var asBulkDepending: (any BulkDependingPlugin)? { get }
}

extension LoaderPlugin {
    public var acceptsDirectories: Bool { false }
    public var headerLength: Int { 0 }
    public func matchesSignature(_ header: [UInt8]) -> Bool { false }
    /// ``matchesSignature(_:)``'s answer: the header decides.
    public func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch { matchesSignature(prefix) ? .matches : .differs }
    /// ``headerLength``: nothing past the header is read.
    public var signatureReach: Int { headerLength }
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? { nil }
    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] { [] }
    public func estimatedWork(for request: PlannedRequest) -> Int64? { nil }
    public var toleratesFailedDependencies: Bool { false }
    public var loadsAsynchronously: Bool { false }

    public func load(_ context: LoadContext) throws -> any Asset {
        throw AssetError(
            path: context.request.path, category: .other,
            reason: "plugin '\(identifier)' implements neither load(_:) nor load(_:completion:)")
    }

    public func load(_ context: LoadContext, completion: @escaping @Sendable (Result<any Asset, any Error>) -> Void) {
        completion(Result { try load(context) })
    }

    /// `nil`: the plugin is not a ``ContainerPlugin`` (one that is gets `self`).
    public var asContainer: (any ContainerPlugin)? { nil }
    /// `nil`: the plugin is not a ``PlanningPlugin`` (one that is gets `self`).
    public var asPlanning: (any PlanningPlugin)? { nil }
    /// `nil`: the plugin is not an ``ExpandingPlugin`` (one that is gets `self`).
    public var asExpanding: (any ExpandingPlugin)? { nil }
    /// `nil`: the plugin is not a ``BulkDependingPlugin`` (one that is gets `self`).
    public var asBulkDepending: (any BulkDependingPlugin)? { nil }
}

extension LoaderPlugin where Self: ContainerPlugin {
    /// `self`, a ``ContainerPlugin``.
    public var asContainer: (any ContainerPlugin)? { self }
}

extension LoaderPlugin where Self: PlanningPlugin {
    /// `self`, a ``PlanningPlugin``.
    public var asPlanning: (any PlanningPlugin)? { self }
}

extension LoaderPlugin where Self: ExpandingPlugin {
    /// `self`, an ``ExpandingPlugin``.
    public var asExpanding: (any ExpandingPlugin)? { self }
}

/// A request after planning: the file was found, a plugin claimed it, and its size is known.
///
/// A value: a view of one entry of its batch's planning (the batch keeps every request's facts
/// in per-batch arrays, indexed by entry), made when a plugin is called
/// (``LoaderPlugin/dependencies(of:)``, ``LoaderPlugin/estimatedWork(for:)``,
/// ``PlanningPlugin/plan(_:)``, ``LoadContext/request``). Copying it copies a reference and a
/// number; reading a property reads the batch's arrays.
///
/// Before issue 50 it was a `final class` allocated per request. Code that compared two with
/// `===` still compiles (deprecated: it tells whether two views show the same entry);
/// compare with `==`, which compares the request, plugin and file.
public struct PlannedRequest: Hashable, Sendable, CustomStringConvertible {
    /// The batch's table (or a table of one, for a request made with the public initialiser).
    let table: PlannedTable
    /// The entry this request is, in ``table``.
    let entry: Int

    /// A view of `entry` in `table`.
    init(table: PlannedTable, entry: Int) {
        self.table = table
        self.entry = entry
    }

    /// A request planned for the plugin `plugin` (its identifier), for the file `file` describes,
    /// read through `files`: what planning hands a plugin, for a plugin's own tests or a tool
    /// that asks a plugin about one file (``LoaderPlugin/dependencies(of:)``) without a batch.
    public init(request: AssetRequest, plugin: String, file: FileFacts, files: AssetFiles = .local) {
        self.init(request: request, plugin: plugin, file: file, files: files, claimWarning: nil)
    }

    /// A planned request with the warning planning gives it when content overruled its extension.
    package init(request: AssetRequest, plugin: String, file: FileFacts, files: AssetFiles, claimWarning: AssetWarning?) {
        self.init(table: PlannedTable(request: request, plugin: plugin, file: file, files: files, claimWarning: claimWarning), entry: 0)
    }

    /// The request as the caller made it (for a merged load, the first one).
    public var request: AssetRequest {
        // Lent where the table keeps it: reading `request.name` copies the name, not the request.
        _read {
            if let kept = table.keptRequest(entry) {
                yield kept.pointee.request!
            } else if table.listedCount == 0 {  // most batches
                yield table.given[entry]
            } else if let given = table.callers.givenIndex(of: entry) {
                yield table.given[given]
            } else {  // an entry a bulk plugin listed: its request made now
                let made = table.callers.boxed(entry)
                yield made.request
            }
        }
    }
    /// The identifier of the plugin that loads it.
    public var plugin: String { table.pluginIdentifier(entry) }
    /// What `stat` said about the file (or the container about the entry).
    public var file: FileFacts {
        _read {
            if let slot = table.slot(entry) {
                yield slot.pointee.file
            } else {
                yield table.file(entry)  // an entry a bulk plugin listed: made from its listing
            }
        }
    }
    /// How to read this file and the files it mentions: disk, or entries inside containers.
    public var files: AssetFiles { table.files(entry) }

    /// Why planning gave the file to another plugin than its extension names (a JPEG named
    /// `.png`): the asset's first warning.
    package var claimWarning: AssetWarning? { table.claimWarning(entry) }

    /// The file, as the request named it.
    public var path: String { table.path(entry) }
    /// The request's name (``AssetRequest/name``), read without copying the request.
    var name: String { table.name(entry) }
    /// The request's ``AssetRequest/requestedPath``, read without copying the request.
    var requestedPath: String { table.requestedPath(entry) }
    /// The request's name and ``AssetRequest/requestedPath``, read together without copying the request.
    var nameAndPath: (name: String, path: String) { table.nameAndPath(entry) }
    /// The request's ``AssetRequest/origin``, read without copying the request.
    var origin: String? { table.origin(entry) }
    /// For an entry inside a container (`game.zip#ui/atlas.json`), what every path inside the
    /// same container starts with (`game.zip#`); `nil` for a file on disk.
    public var containerPrefix: String? {
        let file = self.file, path = self.path
        guard let entry = file.entry, path.hasSuffix(entry) else { return nil }
        return String(path.dropLast(entry.count))
    }
    /// Loader options (read where the batch keeps them, without lending the whole request).
    public var options: AssetOptions { table.options(entry) }

    public var description: String { request.description }

    public static func == (lhs: PlannedRequest, rhs: PlannedRequest) -> Bool {
        lhs.request == rhs.request && lhs.plugin == rhs.plugin && lhs.file == rhs.file
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(request)
        hasher.combine(plugin)
        hasher.combine(file)
    }

    /// Whether `lhs` and `rhs` view the same entry of the same planning: what `===` told of the
    /// class this was until issue 50.
    @available(*, deprecated, message: "PlannedRequest is a value: compare with ==")
    public static func === (lhs: PlannedRequest, rhs: PlannedRequest) -> Bool {
        lhs.table === rhs.table && lhs.entry == rhs.entry
    }
}
