import Foundation
import Preload

extension AssetHandOff {
    /// Drains on a thread of its own, as an engine's render thread would: up to `maxItems` per
    /// call, `pause` seconds between calls that handed something over (the engine's frame, the
    /// work it models), until `stop` is set. With nothing to hand over it sleeps until an asset
    /// arrives (it takes the hand-off's arrival signals: do not also wait with
    /// ``waitUntilHolding(_:seconds:)`` on the same hand-off).
    public func drainOnAThread(
        until stop: Locked<Bool>, maxItems: Int = .max, pause: Double = 0.001, _ upload: @escaping @Sendable (Item) -> (any Sendable)?
    ) {
        Thread.detachNewThread {
            while !stop.withLock({ $0 }) {
                if self.drain(maxItems: maxItems, upload).handedOver > 0 {
                    Thread.sleep(forTimeInterval: pause)  // the frame's duration: nothing waits on it
                } else {
                    // Woken by the next arrival; the timeout only bounds how late `stop` is seen.
                    _ = self.waitForArrival(timeout: .milliseconds(100))
                }
            }
        }
    }

    /// Drains on a thread of its own, one asset per call, as ``drainOnAThread(until:maxItems:pause:_:)``
    /// does, until `stop` is set: the names of the assets handed over, in order, each kept with
    /// the handle 1.
    public func recordNamesOnAThread(until stop: Locked<Bool>) -> Recorder<String> {
        let names = Recorder<String>()
        drainOnAThread(until: stop, maxItems: 1) { item in
            names.append(item.name)
            return 1
        }
        return names
    }

    /// Waits, on a thread of its own (it blocks), until at least `count` assets wait in the
    /// hand-off, woken by each arrival; `false` if `seconds` pass first.
    public func waitUntilHolding(_ count: Int, seconds: Double = 300) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = ContinuousClock.now + .seconds(seconds)
                while self.count < count {
                    let left = deadline - ContinuousClock.now
                    guard left > .zero, self.waitForArrival(timeout: left) else { return continuation.resume(returning: false) }
                }
                continuation.resume(returning: true)
            }
        }
    }
}
