import Foundation
import Preload

/// What the command keeps of an asset it let go under `--memory-budget`: its description,
/// taken before its memory was freed.
struct KeptDescription: Sendable {
    var description: AssetDescription
}

extension AssetResult {
    /// What the command shows of the asset: its kind's description (with `checksums`), or the
    /// one kept when it was let go; `nil` for an asset that does not describe itself.
    func shownDescription(checksums: AssetChecksums?) -> AssetDescription? {
        if let described = outcome.asset as? any DescribedAsset { return described.assetDescription(checksums: checksums) }
        return ((outcome.asset as? HandedOverAsset)?.handle as? KeptDescription)?.description
    }

    /// The bytes the asset holds, or held before it was released.
    var shownBytes: Int {
        (outcome.asset as? HandedOverAsset)?.releasedByteCount ?? (outcome.asset as? ReleasedAsset)?.releasedByteCount
            ?? outcome.asset?.byteCount ?? 0
    }
}

/// `preload --memory-budget`: a thread that takes each loaded asset over as the batch hands it
/// on, computes its checksums (with `--checksum`) and keeps only its description (what the
/// command shows of it), so that its memory is freed and the batch can admit the next loads (the
/// manual's promise). It asks the asset's kind through `DescribedAsset` and `ContainerAsset`,
/// never its type: a container (a pack) is taken over too (freeing its share of the budget) but
/// kept whole, since its listing is what the command shows of its entries; an asset that does
/// not describe itself is kept whole, having nothing else to show.
final class BudgetedConsumer: Sendable {
    let handOff = AssetHandOff(releasesCPUCopies: true)
    private let checksums: Bool
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    private let keptDigests = Locked([String: AssetChecksums]())

    init(checksums: Bool) {
        self.checksums = checksums
        Thread.detachNewThread { [self] in
            while !stopped.withLock({ $0 }) {
                _ = handOff.waitForArrival(timeout: .milliseconds(20))
                handOff.drain(budget: .seconds(3600)) { take($0) }
            }
            handOff.drain(budget: .seconds(3600)) { take($0) }
            finished.signal()
        }
    }

    /// The batch options that send assets here, within `budget` bytes.
    func options(_ options: PreloadOptions, budget: Int) -> PreloadOptions {
        var options = options
        options.storesAssets = false
        options.handOff = handOff
        options.completesAfterHandOff = true
        options.memoryBudget = budget
        return options
    }

    private func take(_ item: AssetHandOff.Item) -> (any Sendable)? {
        guard let described = item.asset as? any DescribedAsset, !(item.asset is any ContainerAsset) else { return nil }
        let digests = checksums ? AssetDigests.compute(for: described) : nil
        if let digests { keptDigests.withLock { $0[item.path] = digests } }
        return KeptDescription(description: described.assetDescription(checksums: digests))
    }

    /// Stops the thread once everything queued is taken over; returns the digests of what it
    /// let go, by path.
    func finish() -> [String: AssetChecksums] {
        stopped.withLock { $0 = true }
        finished.wait()
        return keptDigests.withLock { $0 }
    }
}
