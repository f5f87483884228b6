import PreloadConcurrency

/// ``PreloadOptions/reportKeepsAssets`` off: the batch lets go of each loaded asset once it is
/// recorded (its record then holds a ``ReleasedAsset``), so that a caller that only counts what
/// loaded holds what loads at once, not the whole batch. Lives in the batch's state, behind its
/// lock; the recorder asks it after each load's assets are recorded and stored.
///
/// What is kept all the same, and why: an asset others depend on or that depends on others (an
/// atlas and its pages: they may share textures, which the report's
/// ``PreloadReport/decodedBytes`` counts once, by where their pixels are; a dependent reads its
/// dependencies from the record); an asset another request merged into (``ReleaseMarks``); a
/// ``ContainerAsset`` (a pack: its listing is how its entries are read). A batch that hands
/// results on one by one (a per-asset hook, a hand-off) never lets go: its results carry the
/// asset they deliver (``marks`` is `nil`).
struct ReportRelease {
    /// What planning and the recorder agree on; `nil` when the batch keeps its assets.
    let marks: ReleaseMarks?

    init(marks: ReleaseMarks? = nil) {
        self.marks = marks
    }

    var isOn: Bool { marks != nil }
}

/// Which assets a batch that lets go of its assets (``ReportRelease``) let go of, and which it
/// keeps because planning merged another request into them or made them for a dependency or a
/// dependent: planning goes on while the first files load (a folder being walked), and a
/// request planned later (a repeated file, an atlas's page) must not be merged into an asset
/// that is gone. One lock, taken once per asset let go and once per merge (rare: a repeated
/// request, a dependency): whichever comes first decides. A request whose asset was let go
/// makes an asset of its own (the file loads again).
final class ReleaseMarks: Sendable {
    private struct Marks {
        var released = Set<Int>()
        var kept = Set<Int>()
    }

    private let marks = PreloadMutex(Marks())

    /// Planning merges a request into `asset`, whose key matched: `true` if it may (the asset
    /// was not let go), and the asset is kept from now on.
    func merges(into asset: Int) -> Bool {
        marks.withLock { marks in
            guard !marks.released.contains(asset) else { return false }
            marks.kept.insert(asset)
            return true
        }
    }

    /// Planning made `asset` for a dependency or a dependent (or merged into it): kept.
    func keep(_ asset: Int) {
        marks.withLock { _ = $0.kept.insert(asset) }
    }

    /// The batch would let go of `asset`: `true` if it may (nothing merged into it), and no
    /// request merges into it from now on.
    func releases(_ asset: Int) -> Bool {
        marks.withLock { marks in
            guard !marks.kept.contains(asset) else { return false }
            marks.released.insert(asset)
            return true
        }
    }
}

extension BatchState {
    /// Lets go of `asset`, which has just been recorded and stored, if the batch lets go of its
    /// assets and nothing else of the batch may still read it (see ``ReportRelease``).
    mutating func release(_ asset: Int) {
        guard let marks = release.marks, let loaded = records.loaded(asset), !held.isDependency(asset), records.dependencies(of: asset).isEmpty,
            !(loaded is any ContainerAsset), marks.releases(asset)
        else { return }
        replace(asset, with: ReleasedAsset(releasing: loaded))
    }
}
