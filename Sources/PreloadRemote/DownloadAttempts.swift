import Preload

/// How one download's attempts went, for the ``RetryPolicy`` to judge and the report to tell:
/// requests made, how many were cut, how many in a row brought no new byte, where a range
/// resumed, why the bytes held were dropped.
///
/// Progress is measured against the furthest the file ever got: an attempt that ends with more
/// bytes held than any before it made progress, and starts the count of attempts without
/// progress (and the backoff) again. A server that ignores ranges and cuts at the same byte every
/// time makes none, and gives up after ``RetryPolicy/attempts``.
struct DownloadAttempts {
    /// HTTP requests made.
    var requests = 0
    /// Attempts whose body began and ended before the whole file (cut, stalled, reset midway).
    var cuts = 0
    /// Attempts in a row, up to the last, that brought the file no further.
    var withoutProgress = 0
    /// The most bytes of the file held at the end of any attempt (or kept from an earlier fetch).
    var furthest: Int64 = 0
    /// The byte the first resumed range went on from (206).
    var resumedAt: Int64?
    /// Why the bytes held were dropped, the first time they were.
    var restart: AssetTransfer.Restart?

    /// An attempt ended, not with the whole file, holding `offset` bytes; `cut` when its body
    /// began and the transfer broke before its end.
    mutating func ended(holding offset: Int64, cut: Bool) {
        if cut { cuts += 1 }
        if offset > furthest {
            furthest = offset
            withoutProgress = 0
        } else {
            withoutProgress += 1
        }
    }

    /// Whether `policy` allows another attempt.
    func allowsAnother(under policy: RetryPolicy) -> Bool {
        withoutProgress < policy.attempts && requests < policy.maxRequests
    }

    /// The wait before the next attempt: the policy's backoff for the attempts in a row without
    /// progress (the shortest, after one that made some), or the server's `Retry-After`, within
    /// the policy's longest wait.
    func delay(under policy: RetryPolicy, serverSaid wait: Duration?) -> Duration {
        min(wait ?? policy.delay(beforeAttempt: max(withoutProgress, 1) + 1), policy.maxDelay)
    }

    /// Notes that the held bytes were dropped for `reason` (the first reason is kept).
    mutating func restarted(_ reason: AssetTransfer.Restart) {
        if restart == nil { restart = reason }
    }
}
