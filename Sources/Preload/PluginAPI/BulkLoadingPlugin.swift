/// A loader plugin that loads entries of its files a run at a time (``BulkEntryRun``): the part
/// the two forms of the bulk path share, a ``BulkExpandingPlugin`` (a file that stands for many of
/// the caller's assets) and a ``BulkDependingPlugin`` (a file whose many entries are its
/// dependencies).
public protocol BulkLoadingPlugin: LoaderPlugin {
    /// Loads `run`, some of the entries the plugin listed (``BulkEntries``): open the container
    /// once, then ``BulkEntryRun/loadEach(_:)`` makes each entry this plugin loads by its
    /// position, or ``BulkEntryRun/loadEach(reading:)`` reads each entry's bytes for the plugin
    /// that loads it. An entry that throws fails alone; throwing from here fails every entry of
    /// the run not loaded yet, each by its path, with the error (a container that cannot be
    /// opened).
    func loadEntries(_ run: BulkEntryRun) throws

    /// Whether runs of entries that other plugins load (``BulkEntries/loaders``, an image inside
    /// a zip) are handed to ``loadEntries(_:)`` too, which then reads them with
    /// ``BulkEntryRun/loadEach(reading:)``. The default, `false`: such entries are loaded one by
    /// one, each reading its bytes through ``AssetFiles``.
    var readsEntriesForOtherPlugins: Bool { get }
}

extension BulkLoadingPlugin {
    /// Runs hold only the plugin's own entries.
    public var readsEntriesForOtherPlugins: Bool { false }
}
