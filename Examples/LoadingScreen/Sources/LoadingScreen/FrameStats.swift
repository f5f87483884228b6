import Preload

/// Time spent on uploads each frame while the level streams in: the cost the loading screen
/// puts on the frame.
struct FrameStats {
    private var uploadTimes: [Duration] = []
    private var uploads = 0

    /// Records one frame's upload time, if it uploaded anything (`working`).
    mutating func record(_ elapsed: Duration, handedOver: Int, working: Bool) {
        guard working else { return }
        uploadTimes.append(elapsed)
        uploads += handedOver
    }

    /// One line: assets, frames, and the median, 99th percentile and maximum upload time per
    /// frame, with how many frames went more than a millisecond over `budget`.
    func summary(budget: Duration) -> String {
        let sorted = uploadTimes.sorted()
        guard let maximum = sorted.last else { return "no uploads" }
        func percentile(_ fraction: Double) -> Duration {
            sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
        }
        func ms(_ duration: Duration) -> String {
            let milliseconds = duration / .milliseconds(1)
            return String(Double(Int(milliseconds * 100)) / 100)
        }
        let over = sorted.count { $0 > budget + .milliseconds(1) }
        let frames = sorted.count == 1 ? "1 frame" : "\(sorted.count) frames"
        return "hand-off: \(uploads == 1 ? "1 asset" : "\(uploads) assets") over \(frames); upload time per frame: median \(ms(percentile(0.5))) ms,"
            + " p99 \(ms(percentile(0.99))) ms, max \(ms(maximum)) ms (budget \(ms(budget)) ms; \(over) frame\(over == 1 ? "" : "s") over it by more than 1 ms)"
    }
}
