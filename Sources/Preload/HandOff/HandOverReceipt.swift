/// What a hand-off item carries back to its batch: which batch and asset it is, and the one
/// thing the engine's thread can tell the batch about it, that it was handed over. Its
/// acknowledgement is one call to the batch's recorder (``BatchRecorder/handedOver(_:handle:releasing:)``,
/// which keeps the recorder until the item is handed over); it holds nothing else of the batch,
/// and the batch never completes on the thread that calls it.
struct HandOverReceipt: Sendable {
    /// The batch the item came from (to withdraw a cancelled batch's items from the queue).
    let batch: ObjectIdentifier
    /// The asset's number in its batch.
    let asset: Int
    private let acknowledge: @Sendable (AssetHandOff.Item, (any Sendable)?, Bool) -> Void

    init(batch: ObjectIdentifier, asset: Int, acknowledge: @escaping @Sendable (AssetHandOff.Item, (any Sendable)?, Bool) -> Void) {
        self.batch = batch
        self.asset = asset
        self.acknowledge = acknowledge
    }

    /// The engine took `item` over, returning `handle`; with `releasing`, the asset leaves memory.
    func handedOver(_ item: AssetHandOff.Item, handle: (any Sendable)?, releasing: Bool) {
        acknowledge(item, handle, releasing)
    }
}
