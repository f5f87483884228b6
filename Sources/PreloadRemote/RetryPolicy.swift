/// When a download that failed is tried again: a bounded number of attempts in a row that make
/// no progress, exponential backoff with jitter between them, and a stall timeout that counts a
/// transfer receiving nothing as failed. What is retried: a connection refused, reset or cut
/// midway (resumed from where it stopped), a stall, HTTP 408, 429 (after its `Retry-After`,
/// within ``maxDelay``) and 5xx. What is not: any other 4xx (final, named in the report with its
/// status), bytes that do not match their promised size or SHA-256, a redirect refused.
///
/// **Progress resets the count.** An attempt that takes the file further than any attempt
/// before it (a resumed range that brings new bytes) is progress: the count of attempts in a row
/// without progress starts again, and so does the backoff. A download that a proxy cuts every
/// 20 MB therefore goes on until the file is whole, whatever its size; one that gets nowhere
/// (refused, a 5xx, a stall, a server that ignores ranges and cuts at the same byte) gives up
/// after ``attempts``. ``maxRequests`` bounds the requests for one file in all, as a sanity
/// bound against a server that trickles a byte per connection.
///
/// ```swift
/// import PreloadRemote
///
/// var retries = RetryPolicy()
/// retries.attempts = 3
/// retries.stallTimeout = .seconds(5)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in a row that bring no new byte of the file, the first included (5 by default):
    /// past that the download gives up. An attempt that takes the file further starts the
    /// count again.
    public var attempts: Int
    /// HTTP requests one file may take in all, however much each one brought (1000 by default:
    /// a 20 GB file cut every 20 MB): a sanity bound, never reached by a download that a cut
    /// every few megabytes merely slows.
    public var maxRequests: Int
    /// The wait before the second attempt (0.25 s by default); each later wait doubles, up to
    /// ``maxDelay``.
    public var initialDelay: Duration
    /// The longest wait between two attempts (8 s by default).
    public var maxDelay: Duration
    /// How much of each wait is random (0.5 by default: a wait of d is drawn from d/2...d), so
    /// that many clients cut off at once do not come back at once.
    public var jitter: Double
    /// A transfer that receives nothing for this long (the response's headers or body) is cut
    /// and tried again (15 s by default).
    public var stallTimeout: Duration
    /// The longest one connection may take to open (10 s by default).
    public var connectTimeout: Duration

    /// The defaults described on each property.
    public init(
        attempts: Int = 5, maxRequests: Int = 1000, initialDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(8),
        jitter: Double = 0.5,
        stallTimeout: Duration = .seconds(15), connectTimeout: Duration = .seconds(10)
    ) {
        self.attempts = max(1, attempts)
        self.maxRequests = max(self.attempts, maxRequests)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.stallTimeout = stallTimeout
        self.connectTimeout = connectTimeout
    }

    /// The wait before attempt `attempt` (2 for the first retry) of a run of attempts without
    /// progress (a download counts from 1 again after an attempt that brought new bytes), with
    /// its jitter drawn from `random` (a number in 0..<1).
    public func delay(beforeAttempt attempt: Int, random: Double = Double.random(in: 0..<1)) -> Duration {
        guard attempt > 1 else { return .zero }
        var delay = initialDelay
        for _ in 2..<attempt where delay < maxDelay { delay *= 2 }
        delay = min(delay, maxDelay)
        return delay * (1 - jitter * random)
    }

    /// Whether an HTTP status is worth another attempt.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }
}

extension Duration {
    /// As seconds for Dispatch.
    var timeInterval: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
