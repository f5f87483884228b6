import Dispatch
import Foundation
import Preload
import PreloadConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One remote file brought into the cache: the cache asked first (a file whose promised SHA-256
/// it holds costs nothing; one it holds without a promise is revalidated with `If-None-Match`,
/// and a 304 costs no body), then attempts until the file is whole and checked or the
/// ``RetryPolicy`` gives up (``DownloadAttempts`` counts: attempts that bring new bytes reset it). Each attempt streams into a temporary file in the cache's
/// `partial/` folder, hashing as it writes; a connection cut midway is resumed with `Range` and
/// `If-Range` (a strong validator, ``ResumeValidators``), or `Range` alone when the SHA-256 was
/// promised, and starts over cleanly when the server answers with the whole file or gives
/// nothing to resume against. Bytes over the promised size are cut off; a size or SHA-256 that
/// differs fails (a resumed file is fetched again whole, once), and the file never enters the
/// cache.
final class RemoteDownload: Sendable {
    private typealias State = RemoteDownloadState
    private typealias StopReason = RemoteDownloadState.StopReason

    let file: RemoteFile
    let cache: RemoteCache
    let transport: any HTTPTransport
    let configuration: RemoteFetcher.Configuration
    let session: SourceSession
    private let started = ContinuousClock.now
    let state = PreloadMutex(RemoteDownloadState())
    private let completion: @Sendable (Result<FetchedFile, AssetError>) -> Void
    let timerQueue = DispatchQueue(label: "preload.remote.download")
    /// The suffix the cached copy gets: the URL's extension, letters and digits only.
    let suffix: String

    init(
        file: RemoteFile, cache: RemoteCache, transport: any HTTPTransport, configuration: RemoteFetcher.Configuration,
        session: SourceSession, completion: @escaping @Sendable (Result<FetchedFile, AssetError>) -> Void
    ) {
        self.file = file
        self.cache = cache
        self.transport = transport
        self.configuration = configuration
        self.session = session
        self.completion = completion
        suffix = RemoteCache.suffix(of: file.url)
    }

    /// Starts: the cache first, then the network.
    func start() {
        if session.isCancelled { return finish(.failure(.cancelled)) }
        let cached: RemoteCacheIndex.Entry?
        do {
            cached = try cache.entry(for: file.url)
        } catch {
            return finish(.failure(.cache("\(error)")))
        }
        if let expectedSize = file.expected.size { tellExpected(expectedSize) }
        if let cached {
            let promised = file.expected
            if let sha = promised.sha256 {
                // The promise says which bytes: the cache has them, or the file changed.
                if sha == cached.sha256 && (promised.size ?? cached.size) == cached.size { return finishFromCache(cached) }
            } else if !configuration.revalidates {
                return finishFromCache(cached)
            } else if cached.etag != nil || cached.lastModified != nil {
                state.withLock { $0.revalidating = cached }  // If-None-Match (If-Modified-Since): a 304 costs no body
            }
        }
        state.withLock { $0.hashChecksResume = file.expected.sha256 != nil }
        if let partial = cache.partial(for: file.url) { adopt(partial) }
        let token = session.onCancel { [weak self] in self?.stop(.cancelled) }
        state.withLock { $0.cancelToken = token }
        if let cached, patches(cached) { return patch(from: cached) }  // RemoteDownload+Patch.swift
        attempt()
    }

    // MARK: Attempts

    func attempt() {
        var dropped: Int64 = 0
        let headers = state.withLock { state -> [String: String]? in
            guard !state.isDone else { return nil }
            state.attempts.requests += 1
            state.status = 0
            state.ignoresBody = false
            state.stopReason = nil
            state.retryAfter = nil
            state.lastActivity = .now
            var headers = ["User-Agent": configuration.userAgent, "Accept-Encoding": "identity"]
            dropped = state.askForTheRest(&headers)
            if state.offset == 0, let cached = state.revalidating {
                if let etag = cached.etag {
                    headers["If-None-Match"] = etag
                } else if let date = cached.lastModified {
                    headers["If-Modified-Since"] = date
                }
            }
            return headers
        }
        guard let headers else { return }
        if dropped > 0 { session.expect(dropped) }  // those bytes come again
        let transfer = transport.get(
            file.url, headers: headers,
            onHead: { [self] head in received(head) },
            onBody: { [self] chunk in received(chunk) },
            onEnd: { [self] failure in ended(failure) })
        let stopNow = state.withLock { state -> Bool in
            state.transfer = transfer
            return state.isDone || state.stopReason != nil
        }
        if stopNow { transfer.cancel() }
        watchForStall()
    }

    /// The response's head: decides whether its body is the file, the rest of it, or nothing.
    private func received(_ head: HTTPHead) -> Bool {
        var restartBytes: Int64 = 0
        let verdict = state.withLock { state -> Bool in
            guard !state.isDone, state.stopReason == nil else { return false }  // stopped before its head came
            state.lastActivity = .now
            state.status = head.status
            switch head.status {
            case 304 where state.revalidating != nil:
                state.ignoresBody = true  // the cached file is current: ended() finishes from the cache
                return true
            case 206 where state.offset > 0:
                guard let range = head.contentRange, range.start == state.offset else {
                    state.attempts.restarted(.otherRange)
                    state.stopReason = .restart  // not the range asked for: start over
                    return false
                }
                if state.attempts.resumedAt == nil { state.attempts.resumedAt = state.offset }
                state.totalSize = range.total ?? state.totalSize
                return true
            case 200:
                let validators = ResumeValidators(headers: head.headers)
                if state.offset > 0 {  // the whole file (Range ignored, or the file changed): never appended
                    let asked = state.validators.ifRange
                    let same = asked == nil || asked == validators.etag || asked == validators.lastModified
                    state.attempts.restarted(same ? .ignoresRanges : .changed)
                    restartBytes = state.offset
                    state.truncate()
                }
                state.revalidating = nil
                state.validators = validators
                state.totalSize = head.headers["content-length"].flatMap { Int64($0) }
                return true
            case 416 where state.offset > 0:
                state.attempts.restarted(.otherRange)
                state.stopReason = .restart
                return false
            default:
                if head.status == 429, let after = head.headers["retry-after"].flatMap({ Double($0) }) {
                    state.retryAfter = .milliseconds(Int64(min(after, 3600) * 1000))
                }
                state.ignoresBody = true  // an error's body: ended() retries or fails
                return true
            }
        }
        if state.withLock({ $0.ignoresBody }) { return true }
        if restartBytes > 0 { session.expect(restartBytes) }  // those bytes come again
        guard verdict else { return false }
        let opened = state.withLock { state -> Bool in
            guard !state.isDone else { return true }  // finished meanwhile: no file to make
            if state.descriptor < 0 {
                let (name, path) = cache.newPartialPath()
                state.descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                if state.descriptor >= 0 { flock(state.descriptor, LOCK_EX | LOCK_NB) }  // a new name: nobody else has it
                state.partialName = name
            }
            return state.descriptor >= 0
        }
        guard opened else {
            stop(.failed(.cache("cannot write a temporary file: \(String(cString: strerror(errno)))")))
            return false
        }
        // Now the size is known, if it was not promised.
        if file.expected.size == nil, let total = state.withLock({ $0.totalSize }) { tellExpected(total) }
        // In the index from its first byte: a process killed midway (Ctrl-C) leaves it to resume.
        let (name, validators, total, resumable) = state.withLock { ($0.partialName, $0.validators, $0.totalSize, $0.canResume) }
        if let name, resumable, head.status == 200 {
            cache.keepPartial(url: file.url, name: name, validators: validators, sha256: file.expected.sha256, totalSize: total)
        }
        return true
    }

    /// A chunk of the body: cut off past the promised size, else written and hashed.
    private func received(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let outcome = state.withLock { state -> RemoteFetchError?? in
            guard !state.isDone, state.stopReason == nil else { return .some(nil) }
            state.lastActivity = .now
            if state.ignoresBody { return .none }
            guard state.descriptor >= 0 else { return .some(nil) }  // a body before its head was taken
            if let limit = file.expected.size ?? state.totalSize, state.offset + Int64(chunk.count) > limit {
                return .some(file.expected.size != nil ? .tooLong(expected: limit) : .mismatch("more bytes than the response's length"))
            }
            var written = 0
            while written < chunk.count {
                let count = write(state.descriptor, chunk.baseAddress! + written, chunk.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return .some(.cache("cannot write a temporary file: \(String(cString: strerror(errno)))"))
                }
                written += count
            }
            state.hasher.update(bufferPointer: chunk)
            state.offset += Int64(chunk.count)
            state.networkBytes += Int64(chunk.count)
            state.toldReceived += Int64(chunk.count)
            return .none
        }
        switch outcome {
        case .none:
            if state.withLock({ !$0.ignoresBody }) { session.receive(Int64(chunk.count)) }
            return true
        case .some(.none):
            return false
        case .some(.some(let error)):
            stop(.failed(error))
            return false
        }
    }

    /// The attempt ended: the file is whole, or why not decides what comes next.
    private func ended(_ failure: HTTPTransportFailure?) {
        enum Next {
            case alreadyFinished, done, finishFromCache(RemoteCacheIndex.Entry), retry(Duration?, cut: Bool), retryNow, fail(RemoteFetchError)
        }
        let next = state.withLock { state -> Next in
            state.transfer = nil
            guard !state.isDone else { return .alreadyFinished }
            switch state.stopReason {
            case .cancelled: return .fail(.cancelled)
            case .failed(let error): return .fail(error)
            case .restart:
                state.truncate()
                state.validators = ResumeValidators()
                return .retryNow
            case .stalled: return .retry(nil, cut: true)
            case nil: break
            }
            if let failure {
                switch failure {
                case .connection, .unreachable, .timedOut: return .retry(nil, cut: true)
                case .redirect(let detail): return .fail(.redirect(detail))
                case .badURL(let detail): return .fail(.badURL(detail))
                case .unavailable(let detail): return .fail(.library(detail))
                case .tls(let detail): return .fail(.transfer(state.failure("TLS failed: \(detail)", promised: file.expected.size)))
                case .cancelled: return .fail(.cancelled)
                }
            }
            if state.status == 304, let cached = state.revalidating { return .finishFromCache(cached) }
            if state.status != 200 && state.status != 206 {
                return RetryPolicy.isRetryable(status: state.status)
                    ? .retry(state.retryAfter, cut: false) : .fail(.status(state.status, attempts: state.attempts.requests))
            }
            if let total = state.totalSize, state.offset < total { return .retry(nil, cut: true) }  // cut short without an error
            return .done
        }
        switch next {
        case .alreadyFinished:
            return
        case .done:
            complete()
        case .finishFromCache(let entry):
            cache.touch(url: file.url)
            finishFromCache(entry)
        case .fail(let error):
            finish(.failure(error))
        case .retryNow:
            retry(after: .zero, cause: "the server answered a range request with another range", cut: false)
        case .retry(let wait, let cut):
            // A connection's own words, else why it stopped (a stall, not the watch's "cancelled").
            let cause = failure?.connectionWords
            retry(after: wait, cause: cause ?? describeStop(), cut: cut)
        }
    }

    private func describeStop() -> String {
        state.withLock { state in
            if case .stalled = state.stopReason { return "no bytes for \(configuration.retries.stallTimeout)" }
            if state.status != 200 && state.status != 206 && state.status != 0 { return "HTTP \(state.status)" }
            return "cut off after \(state.offset) of \(state.totalSize.map(String.init) ?? "?") bytes"
        }
    }

    /// Tries again after the policy's wait (or the server's `Retry-After`, within the policy's
    /// longest wait), unless the policy gives up: too many attempts in a row brought no new byte
    /// (`cut`: this one ended without the whole file, not with a status).
    private func retry(after wait: Duration?, cause: String, cut: Bool) {
        let policy = configuration.retries
        let verdict = state.withLock { state -> Result<Duration, RemoteFetchError> in
            let cut = cut && (state.status == 200 || state.status == 206)  // the body began: refused or a stalled head is no cut
            state.attempts.ended(holding: state.offset, cut: cut)
            guard state.attempts.allowsAnother(under: policy) else {
                let status = state.status
                if !cut && status != 0 && status != 200 && status != 206 { return .failure(.status(status, attempts: state.attempts.requests)) }
                return .failure(.transfer(state.failure(cause, promised: file.expected.size)))
            }
            return .success(state.attempts.delay(under: policy, serverSaid: wait))
        }
        let delay: Duration
        switch verdict {
        case .failure(let error): return finish(.failure(error))
        case .success(let wait): delay = wait
        }
        timerQueue.asyncAfter(deadline: .now() + delay.timeInterval) { [self] in
            if session.isCancelled { return finish(.failure(.cancelled)) }
            attempt()
        }
    }

    /// Ends the download once: closes and keeps (to resume) or removes its temporary file,
    /// settles the progress it told, and reports.
    func finish(
        _ outcome: Result<String, RemoteFetchError>, discardPartial: Bool = false, contents: ExpectedContents = ExpectedContents()
    ) {
        typealias Kept = (name: String, keep: Bool, validators: ResumeValidators, total: Int64?)
        let cancelled = if case .failure(.cancelled) = outcome { true } else { false }
        let ending = state.withLock { state -> (Int64, AssetTransfer, Kept?, Int)? in
            guard !state.isDone else { return nil }
            state.isDone = true
            if state.descriptor >= 0 {
                close(state.descriptor)
                state.descriptor = -1
            }
            var kept: Kept?
            if let name = state.partialName {
                // A download cut short is kept to resume, when it can be (a validator to ask with, or a
                // promised SHA-256 to check by); one cancelled is kept anyway, for the next fetch to say
                // why it starts over.
                let keep = !discardPartial && state.offset > 0 && (state.canResume || cancelled)
                kept = (name, keep, state.validators, state.totalSize)
            }
            if case .success = outcome { state.cacheBytes = max(state.cacheBytes, 0) }
            // The bar: what this file was expected to weigh counts as done, whatever happened.
            let rest = max(state.toldExpected - state.toldReceived, 0)
            state.toldReceived += rest
            let transfer = AssetTransfer(
                url: file.url, networkBytes: state.networkBytes, cacheBytes: state.cacheBytes, duration: ContinuousClock.now - started,
                attempts: state.attempts.requests, resumedAt: state.attempts.resumedAt, restart: state.attempts.restart,
                patchedFrom: state.patchedFrom, deltas: state.deltas)
            return (rest, transfer, kept, state.cancelToken)
        }
        guard let (rest, transfer, kept, token) = ending else { return }
        session.removeCancelHandler(token)
        if let kept {
            cache.keepPartial(
                url: file.url, name: kept.name, validators: kept.validators, sha256: file.expected.sha256, totalSize: kept.total, keep: kept.keep)
        }
        session.receive(rest)
        completion(
            outcome.map { FetchedFile(path: $0, transfer: transfer, contents: contents) }.mapError { AssetError(path: file.url, wrapping: $0) })
    }

    // MARK: Stopping

    /// Stops the transfer in flight for `reason` (its end then decides what follows).
    private func stop(_ reason: StopReason) {
        let transfer = state.withLock { state -> (any HTTPTransfer)?? in
            guard !state.isDone else { return .none }
            if state.stopReason == nil { state.stopReason = reason }
            return .some(state.transfer)
        }
        guard let transfer else { return }
        if let transfer {
            transfer.cancel()
        } else if case .cancelled = reason {
            finish(.failure(.cancelled))  // between attempts: nothing in flight to end
        }
    }

    /// Checks, a few times per stall timeout, that the attempt in flight received something.
    private func watchForStall() {
        let timeout = configuration.retries.stallTimeout
        timerQueue.asyncAfter(deadline: .now() + (timeout / 4).timeInterval) { [weak self] in
            guard let self else { return }
            let (inFlight, idle) = state.withLock {
                ($0.transfer != nil && !$0.isDone && $0.stopReason == nil, ContinuousClock.now - $0.lastActivity)
            }
            guard inFlight else { return }
            if idle >= timeout { stop(.stalled) } else { watchForStall() }
        }
    }

    // MARK: Helpers (resuming a kept download: RemoteDownload+Resume.swift; the end: RemoteDownload+Complete.swift)

    /// Tells the session the file's size (once; later, only the difference).
    func tellExpected(_ size: Int64) {
        let delta = state.withLock { state -> Int64 in
            let delta = size - state.toldExpected
            state.toldExpected = size
            return delta
        }
        session.expect(delta)
    }
}
