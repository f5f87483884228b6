/// What a batch records of each distinct asset, by asset number: the ledger's
/// (``BatchState/records``) while the batch runs, the report's once it completes (moved into
/// ``AssetResults``, never copied), from which each ``AssetResult`` is made when it is read.
///
/// Two arrays by asset number: the loaded assets (40 bytes each, the existential the asset is
/// held in) and one small record of plain values per asset (``Slot``: its weight, how long it
/// took, its plugin's number, how it stands: 24 bytes, read and written without retaining
/// anything); and what few assets have, kept apart by asset number: the dependencies an asset
/// declared, the warnings a loaded asset carries, the error an asset failed with. A plugin's identifier is kept once per batch (``pluginNames``),
/// not once per asset. An asset is numbered after the entry it was planned for, so there is a
/// record per entry: an entry that made no asset of its own leaves its record as made (no
/// plugin, weighing nothing, open).
struct AssetRecords: Sendable {
    /// How an asset stands: not ended yet (or never planned), or how it ended.
    enum Status: UInt8, Sendable {
        case open, loaded, failed, cancelled
    }

    /// What every asset has besides the asset itself: plain values.
    struct Slot: Sendable {
        /// Its share of the batch's progress; 0 for an asset that failed while planning.
        var weight: Int64 = 0
        /// How long loading it took, in nanoseconds (``AssetResult/duration``).
        var nanoseconds: Int64 = 0
        /// Its plugin's index in the batch's registry (its place in ``pluginNames``) plus one; 0 for none.
        var plugin: Int32 = 0
        var status = Status.open
    }

    private(set) var slots: [Slot]
    /// The assets that loaded (after the engine released one, the stand-in that took its place);
    /// `nil` for the others.
    private var assets: [(any Asset)?]
    /// The identifiers of the batch's registry's plugins, by index, as ``Slot/plugin`` numbers
    /// them: an asset's plugin is written as a number, nothing compared (planning knows each
    /// asset's plugin by its index; comparing identifiers per asset was ~100 instructions with
    /// the identifier carried to the records; callgrind, issue 50).
    let pluginNames: [String]
    /// Which of ``pluginNames`` (by index, below 64) some asset has: ``number(ofPlugin:)`` says
    /// `nil` at once for the others (a report asked whether it holds packs scans nothing).
    /// Plugins from index 64 on are taken as having some.
    private var pluginsUsed: UInt64 = 0
    /// The assets each asset depends on, for those that depend on any.
    private(set) var dependencies: [Int: [Int]] = [:]
    /// What was irregular about the loaded assets that have warnings.
    private(set) var warnings: [Int: [AssetWarning]] = [:]
    /// Why the assets that failed failed.
    private var errors: [Int: AssetError] = [:]

    /// Records for `count` assets, none planned yet, of a batch whose registry's plugins are
    /// `plugins` (their identifiers, by index).
    init(count: Int, plugins: [String]) {
        pluginNames = plugins
        slots = Array(repeating: Slot(), count: count)
        assets = Array(repeating: nil, count: count)
    }

    var count: Int { slots.count }
    /// Room for this many records without growing (what the timings outlet grows to at once).
    var capacity: Int { slots.capacity }

    /// A record for one more entry (a dependency planning found).
    mutating func append() {
        slots.append(Slot())
        assets.append(nil)
    }

    // MARK: Reading

    /// The identifier of the plugin of `asset`; `nil` for an entry that made no asset.
    func plugin(of asset: Int) -> String? {
        let number = slots[asset].plugin
        return number == 0 ? nil : pluginNames[Int(number) - 1]
    }

    /// The number ``Slot/plugin`` gives the plugin whose identifier is `identifier`; `nil` if
    /// no asset of the batch has it.
    func number(ofPlugin identifier: String) -> Int32? {
        guard let index = pluginNames.firstIndex(of: identifier), index >= 64 || pluginsUsed & (1 << UInt64(index)) != 0 else { return nil }
        return Int32(index + 1)
    }

    func weight(of asset: Int) -> Int64 { slots[asset].weight }

    func dependencies(of asset: Int) -> [Int] {
        dependencies.isEmpty ? [] : dependencies[asset] ?? []
    }

    func status(of asset: Int) -> Status { slots[asset].status }

    /// How `asset` ended; `nil` while it has not.
    func outcome(of asset: Int) -> AssetOutcome? {
        switch slots[asset].status {
        case .open: nil
        case .loaded: assets[asset].map { .loaded($0) }
        case .failed: errors[asset].map { .failed($0) }
        case .cancelled: .cancelled
        }
    }

    /// The asset `asset` loaded (its stand-in, once released); `nil` unless it loaded.
    func loaded(_ asset: Int) -> (any Asset)? {
        slots[asset].status == .loaded ? assets[asset] : nil
    }

    /// How long loading `asset` took; zero if it never ran.
    func duration(of asset: Int) -> Duration { Duration(wholeNanoseconds: slots[asset].nanoseconds) }

    /// The warnings of `asset`, if it loaded.
    func warnings(of asset: Int) -> [AssetWarning] {
        guard !warnings.isEmpty, slots[asset].status == .loaded else { return [] }
        return warnings[asset] ?? []
    }

    /// Whether any loaded asset carries a warning.
    var hasWarnings: Bool {
        warnings.keys.contains { slots[$0].status == .loaded }
    }

    // MARK: Writing

    /// `asset` is loaded by the registry's plugin at index `plugin` (``RegisteredPlugin/index``).
    mutating func setPlugin(_ plugin: Int, of asset: Int) {
        slots[asset].plugin = Int32(truncatingIfNeeded: plugin + 1)
        if plugin < 64 { pluginsUsed |= 1 << UInt64(plugin) }
    }

    /// `asset` is planned: it weighs `weight` and depends on `dependencies`.
    mutating func plan(_ asset: Int, weight: Int64, dependencies: [Int]) {
        slots[asset].weight = weight
        if !dependencies.isEmpty { self.dependencies[asset] = dependencies }
    }

    /// How the finished asset at `index` of a load's `finished` ended: its outcome, its duration,
    /// its warnings if it loaded. Read in place, through a pointer, by its parts: nothing of it
    /// is copied but what the record keeps (``FinishedAsset``).
    mutating func record(_ finished: [FinishedAsset], at index: Int) {
        finished.withUnsafeBufferPointer { record($0.baseAddress! + index) }
    }

    /// ``record(_:at:)`` of the finished asset at `finished`.
    private mutating func record(_ finished: UnsafePointer<FinishedAsset>) {
        let asset = finished.pointee.asset
        slots[asset].nanoseconds = finished.pointee.nanoseconds
        switch finished.pointee.status {
        case .loaded:
            keep(finished, for: asset)
            slots[asset].status = .loaded
            if !finished.pointee.warnings.isEmpty { warnings[asset] = finished.pointee.warnings }
        case .failed:
            fail(asset, finished.pointee.failure!)
        case .cancelled, .open:
            slots[asset].status = .cancelled
        }
    }

    /// Holds the asset `finished` loaded as `asset`'s. An asset not recorded yet holds nothing,
    /// and is written without destroying the `nil` there (assigning an optional existential
    /// destroys the old value through the runtime's generic witnesses: ~120 instructions an
    /// asset). The asset is copied from where it is, once (handed over as a value, it was copied
    /// twice and the first copy destroyed: ~90 instructions; callgrind, issue 50).
    private mutating func keep(_ finished: UnsafePointer<FinishedAsset>, for asset: Int) {
        guard slots[asset].status == .open else { return assets[asset] = finished.pointee.loaded }
        assets.withUnsafeMutableBufferPointer { ($0.baseAddress! + asset).initialize(to: finished.pointee.loaded) }  // over `nil`: nothing to destroy
    }

    /// `asset` failed with `error` (while planning, or loading).
    mutating func fail(_ asset: Int, _ error: AssetError) {
        slots[asset].status = .failed
        errors[asset] = error
    }

    /// The engine released `asset` (or the batch let go of it: ``ReportRelease``): `standIn`
    /// takes its place, if it is loaded.
    mutating func replace(_ asset: Int, with standIn: any Asset) {
        guard asset < slots.count, slots[asset].status == .loaded else { return }
        assets[asset] = standIn
    }
}
