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
/// is how its entries are read); a texture or data asset whose bytes are a view into a mapped
/// file (a baked pack's entry): it holds no memory of its own, so letting it go would cost time
/// and free nothing. A batch that hands results on one by one (a per-asset hook, a hand-off)
/// never lets go: its results carry the asset they deliver (``isOn`` is off).
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
        guard release.isOn, let loaded = records.loaded(asset), !Self.isView(loaded) else { return }
        guard phase != .planning else { return release.afterPlanning.append(asset) }
        letGo(asset)
    }

    /// Whether `asset` is a view into a mapped file (core's kinds only: a cast to a concrete
    /// type, not a conformance lookup).
    private static func isView(_ asset: any Asset) -> Bool {
        if let texture = asset as? Texture { return texture.pixels.isMapped }
        if let data = asset as? DataAsset { return data.bytes.isMapped }
        return false
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
