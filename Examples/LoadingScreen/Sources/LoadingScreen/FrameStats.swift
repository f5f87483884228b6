import Preload

/// Time spent in the hand-off each frame: the cost the loading screen puts on the frame.
struct FrameStats {
    private var drainTimes: [Duration] = []
    private var uploads = 0

    mutating func record(_ drained: AssetHandOff.Drained) {
        guard drained.handedOver > 0 else { return }
        drainTimes.append(drained.elapsed)
        uploads += drained.handedOver
    }

    func summary(budget: Duration) -> String {
        let sorted = drainTimes.sorted()
        guard let maximum = sorted.last else { return "no uploads" }
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        func ms(_ duration: Duration) -> String { String(duration / .milliseconds(1)) }
        return
            "hand-off: \(uploads) assets over \(sorted.count) frames; drain per frame max \(ms(maximum)) ms, p99 \(ms(p99)) ms (budget \(ms(budget)) ms)"
    }
}
