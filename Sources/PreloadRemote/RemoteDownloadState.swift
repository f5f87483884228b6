import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one ``RemoteDownload`` knows while it runs, behind its lock: its temporary file and the
/// bytes in it (all hashed), the validators and size the server gave, its attempts, what it told
/// the session, and the transfer in flight.
struct RemoteDownloadState: ~Copyable {
    var attempts = DownloadAttempts()
    /// The temporary file being written, and its name in `partial/`.
    var descriptor: Int32 = -1
    var partialName: String?
    /// Bytes in the temporary file, all hashed.
    var offset: Int64 = 0
    var hasher = SHA256()
    /// The validators of the response the temporary file is part of (for `If-Range`, and for
    /// the cache entry's `If-None-Match` or `If-Modified-Since`).
    var validators = ResumeValidators()
    /// Whether the file's SHA-256 was promised: then bytes held without a validator are resumed
    /// with `Range` alone, since the check at the end catches a file that changed between.
    var hashChecksResume = false
    /// Whether a resumed copy failed its check and the file was fetched again from byte 0 (once).
    var refetchedWhole = false
    /// The whole file's size, as the server said.
    var totalSize: Int64?
    /// What the session was told to expect for this file, and what it was told arrived.
    var toldExpected: Int64 = 0
    var toldReceived: Int64 = 0
    var networkBytes: Int64 = 0
    var cacheBytes: Int64 = 0
    /// The SHA-256 of the cached pack this one was patched from (RemoteDownload+Patch.swift).
    var patchedFrom: String?
    /// The entries of that patch that came as deltas.
    var deltas: AssetTransfer.Deltas?
    /// The cached entry sent with `If-None-Match`, if any.
    var revalidating: RemoteCacheIndex.Entry?
    var transfer: (any HTTPTransfer)?
    /// Why the transfer in flight was stopped by the download itself.
    var stopReason: StopReason?
    var lastActivity = ContinuousClock.now
    /// The status of the attempt in flight, once its head came.
    var status = 0
    var retryAfter: Duration?
    /// The attempt's body is not the file (an error status, a 304): read and dropped.
    var ignoresBody = false
    var isDone = false
    var cancelToken = 0

    /// Why the download stopped the transfer in flight itself.
    enum StopReason {
        case stalled, cancelled, failed(RemoteFetchError), restart
    }

    /// Empties the temporary file: the next bytes start the file again.
    mutating func truncate() {
        if descriptor >= 0 {
            ftruncate(descriptor, 0)
            lseek(descriptor, 0, SEEK_SET)
        }
        offset = 0
        cacheBytes = 0
        hasher = SHA256()
    }

    /// How the transfer went, for giving up with `cause` as the last attempt's (`promised`: the
    /// size the request promised, if any).
    func failure(_ cause: String, promised: Int64?) -> TransferFailure {
        TransferFailure(
            cause: cause, attempts: attempts.requests, cuts: attempts.cuts, received: offset, total: promised ?? totalSize,
            keptForResuming: offset > 0 && canResume && partialName != nil)
    }

    /// Whether the bytes held can be resumed: a validator to send with `If-Range`, or a promised
    /// SHA-256 to check the whole against.
    var canResume: Bool { validators.ifRange != nil || hashChecksResume }
}
