/// ``PreloadOptions/reportKeepsAssets`` off: the batch lets go of each loaded asset once it is
/// recorded (its record then holds a ``ReleasedAsset``), so that a caller that only counts what
/// loaded holds what loads at once, not the whole batch. Lives in the batch's state, behind its
/// lock; the recorder asks it after each load's assets are recorded and stored, and once
/// planning ends.
///
/// What is kept, and why: an asset that loaded while planning went on waits for its end
/// (planning may still merge a request into it: the same file asked for again, or an atlas
/// planned after the page beside it, which folds the walked page into itself); an asset others
/// depend on or that depends on others (an atlas and its pages: they may share textures, which
/// the report's ``PreloadReport/decodedBytes`` counts once, by where their pixels are; a
/// dependent reads its dependencies from the record); a ``ContainerAsset`` (a pack: its listing
/// is how its entries are read). A batch that hands results on one by one (a per-asset hook, a
/// hand-off) never lets go: its results carry the asset they deliver (``isOn`` is off).
struct ReportRelease {
    /// Whether the batch lets go of its assets.
    let isOn: Bool
    /// Assets that loaded while planning went on, to let go of once it ends.
    fileprivate var afterPlanning: [Int] = []

    init(isOn: Bool = false) {
        self.isOn = isOn
    }
}

extension BatchState {
    /// Lets go of `asset`, which has just been recorded and stored, if the batch lets go of its
    /// assets and nothing else of the batch may still read it (see ``ReportRelease``).
    mutating func release(_ asset: Int) {
        guard release.isOn else { return }
        guard phase != .planning else { return release.afterPlanning.append(asset) }
        letGo(asset)
    }

    /// Planning is over: lets go of the assets that loaded while it went on.
    mutating func releaseAfterPlanning() {
        guard release.isOn, !release.afterPlanning.isEmpty else { return }
        let assets = release.afterPlanning
        release.afterPlanning = []
        for asset in assets { letGo(asset) }
    }

    private mutating func letGo(_ asset: Int) {
        guard let loaded = records.loaded(asset), !held.isDependency(asset), records.dependencies(of: asset).isEmpty,
            !(loaded is any ContainerAsset)
        else { return }
        replace(asset, with: ReleasedAsset(releasing: loaded))
    }
}
