/// A loader plugin whose file stands for many assets at once, each a request of the caller's
/// own (a baked pack): requesting the file requests every asset it lists, the way requesting a
/// folder requests every file in it. Each gets its own result, hooks, store entry and share of
/// progress, under the name the file gives it.
///
/// The batch asks ``expand(_:)`` before planning, for a request the plugin claims (by name or by
/// extension) and for such files found in a requested folder. The requests it returns are then
/// planned like any other: typically entries of the file, `FILE#ENTRY`, which the same plugin
/// opens as a ``ContainerPlugin``. A file of many small entries is better served by the bulk
/// path, ``BulkExpandingPlugin``: its entries handed over at once and loaded a run at a time.
public protocol ExpandingPlugin: LoaderPlugin {
    /// The requests `request` stands for, in order, named as the caller should find them; just
    /// `[request]` when it is not for such a file but, say, for one entry inside it (it names
    /// the plugin, as the requests this returns do). Throwing fails `request` alone, with the
    /// error (a damaged file, say).
    func expand(_ request: AssetRequest) throws -> [AssetRequest]

    /// This plugin as a ``BulkExpandingPlugin``, if it is one; `nil` otherwise. Nothing to
    /// implement, as ``LoaderPlugin/asContainer`` says: the answer needs no run-time
    /// conformance lookup.
    var asBulkExpanding: (any BulkExpandingPlugin)? { get }
}

extension ExpandingPlugin {
    /// `nil`: the plugin is not a ``BulkExpandingPlugin`` (one that is gets `self`).
    public var asBulkExpanding: (any BulkExpandingPlugin)? { nil }
}

extension ExpandingPlugin where Self: BulkExpandingPlugin {
    /// `self`, a ``BulkExpandingPlugin``.
    public var asBulkExpanding: (any BulkExpandingPlugin)? { self }
}
