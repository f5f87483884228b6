/// A loader plugin whose file depends on many of its own entries (a zip, a data pack: each entry
/// loaded by the plugin that claims it), and says so at once: the bulk path for dependencies.
///
/// Through ``LoaderPlugin/dependencies(of:)`` alone, each entry is a request like any other:
/// planning finds it by name in the container, claims it and asks its plugin for its
/// dependencies, and loading finds the container and the entry by name again, once per entry.
/// A bulk-depending plugin lists the entries once per file (``bulkDependencies(of:)``: names,
/// sizes, the plugin that loads each or ``BulkEntries/claimedAsFile``), and is handed at loading
/// a run of them (``BulkLoadingPlugin/loadEntries(_:)``), so that it opens its container once per
/// run and finds each entry by its position in its index.
///
/// Nothing else changes: each entry is still a dependency of the file, requested as
/// `FILE#NAME` (the request ``LoaderPlugin/dependencies(of:)`` would return for it, which the
/// file's load finds its outcome by), with its own outcome, events, hand-off, share of progress
/// and admission under a memory budget; an entry that fails fails alone, by its path. An entry
/// requested on its own (`extras.zip#hero.png`, a reload) is found through the plugin as a
/// ``ContainerPlugin``, so ``LoaderPlugin/dependencies(of:)`` and ``bulkDependencies(of:)`` must
/// agree.
///
/// A plugin that is also a ``PlanningPlugin`` is planned as any plugin with dependencies is.
public protocol BulkDependingPlugin: BulkLoadingPlugin {
    /// The entries `request`'s file depends on, at once: what ``LoaderPlugin/dependencies(of:)``
    /// returns, as columns. Entry `i` is the dependency `AssetRequest(path: container#names[i],
    /// name: storeNames[i] (its path when `storeNames` is empty), plugin: loaders[i] (none for
    /// ``BulkEntries/claimedAsFile``), options: options ?? request's)`. `nil`: ask
    /// ``LoaderPlugin/dependencies(of:)`` (one entry of the file, say). Throwing fails `request`
    /// as ``LoaderPlugin/dependencies(of:)`` throwing does.
    func bulkDependencies(of request: PlannedRequest) throws -> BulkEntries?

    /// The first `count` bytes of the entry at `position` (its ``BulkEntries/positions`` value)
    /// of `container`, which planning found as `containerFacts` (fewer when the entry is
    /// shorter): what the claim rule reads of an entry ``BulkEntries/claimedAsFile`` to check its
    /// content against its extension, read without finding the entry by name. `nil` (the
    /// default): read through ``ContainerPlugin/entryPrefix(_:in:count:)``, by name. Throwing
    /// is as that read failing: the claim goes on as it does for an unreadable entry.
    func entryPrefix(at position: Int, in container: String, containerFacts: FileFacts, count: Int) throws -> [UInt8]?
}

extension BulkDependingPlugin {
    /// Read by name, through ``ContainerPlugin/entryPrefix(_:in:count:)``.
    public func entryPrefix(at position: Int, in container: String, containerFacts: FileFacts, count: Int) throws -> [UInt8]? { nil }
}

extension LoaderPlugin where Self: BulkDependingPlugin {
    /// `self`, a ``BulkDependingPlugin``.
    public var asBulkDepending: (any BulkDependingPlugin)? { self }
}
