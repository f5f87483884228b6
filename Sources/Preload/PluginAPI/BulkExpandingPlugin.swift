/// An ``ExpandingPlugin`` that hands the batch all the assets its file stands for at once (a
/// baked pack of 20,000 sprites, say), and loads them a run at a time: the bulk path.
///
/// Through ``ExpandingPlugin/expand(_:)`` alone, each asset of the file is a request like any
/// other: planning finds its entry by name in the container, claims it and asks its plugin for
/// its dependencies, and loading finds the container and the entry by name again, once per asset.
/// A bulk plugin says at planning, once per file, what planning needs of every entry
/// (``bulkEntries(of:)``: names, sizes, dependencies, the plugin that loads each), and is handed
/// at loading a run of its entries (``loadEntries(_:)``), so that it opens its container once per
/// run and finds each entry by its own number (its position in the file's index).
///
/// Nothing else changes: each entry is still a request of the caller's (`FILE#NAME`, named as the
/// file names it), with its own result, outcome, events, hand-off, share of progress and
/// admission under a memory budget, exactly as when it is loaded alone; an entry that fails
/// fails alone, by its path. An entry requested on its own (`level.bake#hero.png`, a reload) is
/// found through the plugin as a ``ContainerPlugin`` (the baked-pack plugin is both) and loaded
/// by ``LoaderPlugin/load(_:)``, so such a plugin loads its entries both ways, and the two must
/// agree.
///
/// The DocC article *Writing a loader plugin* shows one, written against the public API alone.
///
/// A plugin that is also a ``PlanningPlugin`` is planned as any expanding plugin is: its entries
/// are planned one by one (its plan's note belongs to one request at a time).
public protocol BulkExpandingPlugin: ExpandingPlugin, BulkLoadingPlugin {
    /// Every asset `request`'s file stands for, at once, with what planning needs of each; `nil`
    /// when `request` is not for such a file (one entry inside it, a reload): the batch then asks
    /// ``ExpandingPlugin/expand(_:)``. Throwing fails `request` alone, with the error (a damaged
    /// file, say), as ``ExpandingPlugin/expand(_:)`` throwing does.
    func bulkEntries(of request: AssetRequest) throws -> BulkEntries?

    /// Loads `run`, some of the entries one ``bulkEntries(of:)`` listed that this plugin loads:
    /// open the container once, then ``BulkEntryRun/loadEach(_:)`` reads each entry by its
    /// position. An entry that throws fails alone; throwing from here fails every entry of the
    /// run not loaded yet, each by its path, with the error (a container that cannot be opened).
    func loadEntries(_ run: BulkEntryRun) throws
}
