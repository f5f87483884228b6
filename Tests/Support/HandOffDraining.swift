import Foundation
import Preload

extension AssetHandOff {
    /// Drains on a thread of its own, as an engine's render thread would: up to `maxItems` per
    /// call, `pause` seconds between calls, until `stop` is set.
    public func drainOnAThread(
        until stop: Locked<Bool>, maxItems: Int = .max, pause: Double = 0.001, _ upload: @escaping @Sendable (Item) -> (any Sendable)?
    ) {
        Thread.detachNewThread {
            while !stop.withLock({ $0 }) {
                self.drain(maxItems: maxItems, upload)
                Thread.sleep(forTimeInterval: pause)
            }
        }
    }
}
