/// How a batch cuts its assets into loads: small files share one ``LoadOperation``, large ones
/// get their own.
///
/// One operation per file would cost what corelibs' queue costs per operation (several µs,
/// serialized inside the queue whatever its width) on every file, as much as decoding a 16x16
/// PNG. A load gathers files until their work adds up to ``targetWork`` (a few milliseconds of
/// decoding), so the queue's share becomes negligible, while loads stay small enough that every
/// worker has several to take until the end of the batch (at most ``maxAssets`` files each: a
/// quarter of the batch's files per worker), that a cancelled batch stops within one file, and
/// that a more urgent batch waits for at most one load per worker.
///
/// Under a memory budget a load also takes no more files once their decoded sizes would pass
/// ``maxDecodedBytes``, a worker's share of the budget: the budget admits a load whole, by the
/// sum of its files' estimates, so only a single file may ever be larger than its share (small
/// files that decode large, such as one-colour backgrounds, no longer share a load past it).
struct LoadGrouping: Sendable {
    /// The most files one load covers.
    let maxAssets: Int
    /// The work (bytes of file, plus ``workPerFile`` each) after which a load takes no more files.
    let targetWork: Int64
    /// The decoded bytes (``LoadItem/decodedBytes``, counted under a memory budget) after which a
    /// load takes no more files: the budget's limit shared by the workers, so that each can hold
    /// a load; `Int.max` without a limit.
    let maxDecodedBytes: Int

    /// What a file costs besides its bytes (opening, headers, bookkeeping), in bytes of work:
    /// decoding a 300-byte 16x16 PNG costs about what a 1 KiB larger one does.
    static let workPerFile: Int64 = 1024
    /// About 4 ms of PNG decoding on one core of a 2024 laptop.
    static let defaultTargetWork: Int64 = 512 << 10
    /// At most this many files share a load (when a batch has that many per worker).
    static let largestLoad = 256
    /// Loads per worker a batch aims for, at least.
    static let loadsPerWorker = 4

    /// `budget`: the memory budget's limit (``PreloadOptions/memoryBudget``), if any.
    init(requestCount: Int, workers: Int, budget: Int? = nil, targetWork: Int64 = LoadGrouping.defaultTargetWork) {
        let perLoad = requestCount / max(1, workers * Self.loadsPerWorker)
        maxAssets = min(Self.largestLoad, max(1, perLoad))
        self.targetWork = targetWork
        maxDecodedBytes = budget.map { max($0, 0) / max(1, workers) } ?? .max
    }

    /// An asset to put in a load, with its work and whether it gets a load of its own.
    struct Item {
        var item: LoadItem
        /// How much work loading it is (bytes of the file, or its plugin's estimate).
        let work: Int64
        /// Whether its plugin loads asynchronously (``RegisteredPlugin/loadsAsynchronously``).
        let alone: Bool
    }

    /// Cuts `items` (each with its work), in order, into loads. A plugin that loads
    /// asynchronously gets a load per file: its files wait elsewhere, not on a worker, and one
    /// may wait for another.
    func loads(_ items: [Item]) -> [[LoadItem]] {
        var loads: [[LoadItem]] = []
        var current: [LoadItem] = []
        var work: Int64 = 0
        var decoded = 0  // (0 for every file without a budget)
        for index in items.indices {  // (iterating the items would copy each one once more)
            if items[index].alone {
                loads.append([items[index].item])
                continue
            }
            let cost = items[index].work &+ Self.workPerFile
            let bytes = items[index].item.decodedBytes
            if !current.isEmpty && (current.count >= maxAssets || work &+ cost > targetWork || bytes > maxDecodedBytes &- decoded) {
                loads.append(current)
                current = []
                work = 0
                decoded = 0
            }
            // Sized once per load, not grown by doubling (most loads fill to `maxAssets`).
            if current.isEmpty { current.reserveCapacity(min(maxAssets, items.count - index)) }
            current.append(items[index].item)
            work &+= cost
            decoded &+= bytes
        }
        if !current.isEmpty { loads.append(current) }
        return loads
    }
}
