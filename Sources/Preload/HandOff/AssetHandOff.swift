import Dispatch
import PreloadConcurrency

/// Loaded assets waiting for the engine's thread: a game loop drains it once per frame, a few
/// uploads at a time, so that a level streaming in never stalls a frame.
///
/// Loads finish on worker threads; a GPU upload must happen on the thread that owns the
/// graphics context. Give a hand-off to a batch (``PreloadOptions/handOff``) and every asset the
/// caller asked for is queued here as it loads (dependencies too, with
/// ``includesDependencies``), in the batch's ``AssetEventOrder``. Each frame, call
/// ``drain(budget:maxItems:_:)`` from the engine's thread: it runs your upload closure on that
/// thread for queued assets until the time or item budget is spent, never under a lock.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// // Your engine's own, stubbed here: its upload call (a texture on the GPU) and the start of a level.
/// struct GLTexture: Sendable {
///     init(uploading texture: Texture) {}
/// }
/// func startLevel(_ report: PreloadReport) {}
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let level: [AssetRequest] = [.folder("assets/level1", name: "level1")]
/// let handOff = AssetHandOff(releasesCPUCopies: true)
/// let options = PreloadOptions(handOff: handOff, completesAfterHandOff: true)
/// coordinator.preload(level, options: options) { report in startLevel(report) }
/// // every frame, on the render thread:
/// handOff.drain(budget: .milliseconds(2)) { item in
///     guard let texture = item.asset as? Texture else { return nil }
///     return GLTexture(uploading: texture)  // kept in the store: assets.handle(named:)
/// }
/// ```
///
/// With ``PreloadOptions/completesAfterHandOff``, the batch completes (and its progress reaches
/// 1.0) only once its assets have been handed over, so a loading screen ends when the level is
/// on the GPU, not only in memory. With ``PreloadOptions/memoryBudget``, assets waiting here
/// count against the budget until they are handed over.
public final class AssetHandOff: Sendable {
    /// One loaded asset waiting for the engine.
    public struct Item: Sendable {
        /// The name it is stored under (the caller's).
        public let name: String
        /// The file it was loaded from.
        public let path: String
        /// The asset: a ``Texture``, an atlas, a pack, ...
        public let asset: any Asset
        /// Whether a plugin loaded it on behalf of one of the caller's requests.
        public let isDependency: Bool
        /// The units of its batch's progress (``PreloadProgress/totalUnitCount``) this item
        /// stands for: its asset's ``AssetResult/progressWeight`` and those of the dependencies
        /// it carries that are not handed over on their own (an atlas's pages, a pack's entries,
        /// a map's tileset images), each counted with the first item that carries it. The items
        /// of a batch add up to its total (less the bytes of remote downloads, and of assets
        /// that failed). With ``PreloadOptions/completesAfterHandOff`` the batch's progress
        /// moves by this weight when the item is handed over, so an engine that adds up the
        /// weights of what it has finished uploading holds the same count as the bar.
        public let progressWeight: Int64
        /// The acknowledgement it carries back to its batch.
        let receipt: HandOverReceipt
    }

    /// What one ``drain(budget:maxItems:_:)`` did.
    public struct Drained: Sendable, Hashable {
        /// Assets handed to the upload closure.
        public var handedOver = 0
        /// Assets still waiting.
        public var remaining = 0
        /// Time spent, uploads included.
        public var elapsed: Duration = .zero
    }

    private struct Queue {
        var items: [Item] = []
        var head = 0
        var count: Int { items.count - head }

        mutating func popFirst() -> Item? {
            guard head < items.count else { return nil }
            defer {
                head += 1
                if head == items.count || head > 1024 && head * 2 > items.count {
                    items.removeFirst(head)
                    head = 0
                }
            }
            return items[head]
        }
    }

    /// Whether an asset the upload returned a handle for leaves memory: the store and the report
    /// then hold a ``HandedOverAsset`` (with the handle) in its place. Off by default. An asset
    /// that another asset of its batch depends on (an atlas's page also requested by name) stays
    /// in the batch for it until that asset has loaded: releasing it never fails the atlas.
    public let releasesCPUCopies: Bool
    /// Whether dependencies (an atlas's pages, a pack's entries) are queued too. Off by default:
    /// an atlas or a pack carries them.
    public let includesDependencies: Bool
    private let queue = PreloadMutex(Queue())
    private let arrivals = DispatchSemaphore(value: 0)

    /// A hand-off queue; see ``releasesCPUCopies`` and ``includesDependencies``.
    public init(releasesCPUCopies: Bool = false, includesDependencies: Bool = false) {
        self.releasesCPUCopies = releasesCPUCopies
        self.includesDependencies = includesDependencies
    }

    /// How many assets are waiting.
    public var count: Int { queue.withLock { $0.count } }

    /// Runs `upload` on the calling thread for waiting assets, oldest first, until `budget` has
    /// passed or `maxItems` were handed over (at least one, if any waits). `upload` returns the
    /// engine's handle for the asset, kept in the store (``AssetStore/handle(named:as:)``), or
    /// `nil` if it keeps nothing; an asset with a handle is released from memory if
    /// ``releasesCPUCopies``. An asset whose upload throws counts as handed over without a
    /// handle, and the error is rethrown after it.
    @discardableResult
    public func drain(
        budget: Duration = .milliseconds(2), maxItems: Int = .max, _ upload: (Item) throws -> (any Sendable)?
    ) rethrows -> Drained {
        let started = ContinuousClock.now
        var drained = Drained()
        while drained.handedOver < max(maxItems, 1), drained.handedOver == 0 || ContinuousClock.now - started < budget,
            let item = queue.withLock({ $0.popFirst() })
        {
            drained.handedOver += 1
            let handle: (any Sendable)?
            do {
                handle = try upload(item)
            } catch {
                item.receipt.handedOver(item, handle: nil, releasing: false)
                throw error
            }
            item.receipt.handedOver(item, handle: handle, releasing: releasesCPUCopies && handle != nil)
        }
        drained.remaining = count
        drained.elapsed = ContinuousClock.now - started
        return drained
    }

    /// Queues `item` (called by its batch, under the batch's lock).
    func enqueue(_ item: Item) {
        queue.withLock { $0.items.append(item) }
        arrivals.signal()
    }

    /// Takes the items of `batch` out of the queue (it was cancelled).
    func remove(itemsOf batch: ObjectIdentifier) -> [Item] {
        queue.withLock { queue in
            let waiting = queue.items[queue.head...]
            let removed = waiting.filter { $0.receipt.batch == batch }
            guard !removed.isEmpty else { return [] }
            queue.items = waiting.filter { $0.receipt.batch != batch }
            queue.head = 0
            return removed
        }
    }

    /// Waits up to `timeout` for an asset to be queued, for a consumer thread that drains as
    /// assets arrive rather than once per frame (a loader thread, a tool); `true` if one arrived.
    /// Each arrival wakes one wait: give a hand-off one such consumer.
    ///
    /// ```swift
    /// import Preload
    ///
    /// let handOff = AssetHandOff()
    /// // on the consumer's thread, until the batch completes:
    /// if handOff.waitForArrival(timeout: .milliseconds(100)) {
    ///     handOff.drain { item in print("took over", item.name); return nil }
    /// }
    /// ```
    public func waitForArrival(timeout: Duration) -> Bool {
        arrivals.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }
}
