/// A batch's outlets, assembled in one place from its options, in the one order every event
/// reaches them (see ``BatchOutlet``): progress, per-asset timings, remote files' transfers, the
/// hooks, the hand-off.
/// An outlet the batch does not use (no per-asset hooks, no hand-off) is not in the list.
///
/// The store (``StoreOutlet``) is not in the list: a finished load's assets are stored before
/// they are recorded, outside the batch's lock. The memory budget (``MemoryBudget``) has a lock
/// of its own, shared with the loads that ask it for room; the recorder settles with it once
/// the batch's lock is released.
struct BatchOutlets {
    /// The progress tree and the progress hook's throttle.
    let progress: ProgressOutlet
    /// The engine's hand-off (``PreloadOptions/handOff``) and the memory budget's accounts
    /// (``PreloadOptions/memoryBudget``); `nil` without either.
    let handOff: HandOffOutlet?
    /// Every outlet the batch uses, in order.
    let list: [any BatchOutlet]
    /// Whether each entry's result is handed on (``BatchOutlet/delivered(_:receipt:ledger:)``):
    /// to the per-asset hooks, or the hand-off.
    let deliversResults: Bool

    init(options: PreloadOptions, events: EventOutlet) {
        let handOff = options.handOff != nil || options.memoryBudget != nil ? HandOffOutlet(options: options) : nil
        progress = ProgressOutlet(interval: options.progressInterval, handOffShare: { handOff?.progressShare })
        self.handOff = handOff
        var list: [any BatchOutlet] = [progress, TimingsOutlet(), TransferOutlet()]
        if events.wantsAssetEvents { list.append(events) }
        if let handOff { list.append(handOff) }
        self.list = list
        deliversResults = events.wantsAssetEvents || options.handOff != nil
    }
}
