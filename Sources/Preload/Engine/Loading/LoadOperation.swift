import PreloadConcurrency
import Foundation
import Synchronization

/// The unit of work on a coordinator's `OperationQueue`: a state-tracked asynchronous
/// `Operation` that loads one large file, or several small files one after another, each by
/// its plugin's ``LoaderPlugin/load(_:)``.
///
/// Every asset keeps its own outcome: one that fails fails alone, and the rest go on. A cancelled
/// operation stops between files (a running decode stops at its next cancellation check) and
/// reports the files it did not reach as cancelled. The outcomes are handed to the batch in one
/// go when the last file is done (a failure under fail-fast cancels the batch at once).
///
/// The operation announces `isExecuting` and `isFinished` with `willChangeValue`/`didChangeValue`
/// in the order corelibs Foundation needs (it has no KVO; `didChangeValue(forKey: "isFinished")`
/// is what frees the queue slot and starts dependents, and only counts once `isFinished` is
/// true). The outcomes are recorded *before* `isFinished` turns true, never from
/// `completionBlock`, which runs later on a global queue.
final class LoadOperation: Operation, @unchecked Sendable {
    private let state = PreloadMutex(LoadOperationState())
    /// Set by ``cancel()``: read between files and by decoders between chunks, more cheaply
    /// than corelibs' own flag (which takes a lock).
    private let cancelled = Atomic(false)
    /// What is left to load; taken when the operation starts, so finished items are not kept.
    private let items: PreloadMutex<[LoadItem]>
    /// All the operation may ask of its batch, and tell it.
    let reporter: LoadReporter

    init(items: [LoadItem], reporter: LoadReporter) {
        self.items = PreloadMutex(items)
        self.reporter = reporter
        super.init()
    }

    override var isAsynchronous: Bool { true }
    /// Cancelled itself, or its batch was: the batch tells its loads one by one, and one that
    /// starts in between must not start a file.
    override var isCancelled: Bool { cancelled.load(ordering: .acquiring) || reporter.isCancelled }

    override func cancel() {
        cancelled.store(true, ordering: .releasing)
        super.cancel()
    }
    override var isExecuting: Bool { state.withLock { $0.isExecuting } }
    override var isFinished: Bool { state.withLock { $0.isFinished } }

    override func start() {
        let items = self.items.withLock { items in
            defer { items = [] }
            return items
        }
        if isCancelled {
            conclude(items.map { FinishedAsset($0, outcome: .cancelled, duration: .zero) })
            return
        }
        willChangeValue(forKey: "isExecuting")
        guard state.withLock({ $0.begin() }) else { return }
        didChangeValue(forKey: "isExecuting")
        // Under a memory budget, nothing is decoded until the items' estimated sizes fit: the
        // operation stays executing, holding no thread, until the budget resumes it.
        let bytes = items.reduce(0) { $0 + $1.decodedBytes }
        if bytes > 0, let budget = reporter.admission, !budget.acquire(bytes, orResume: { [self] in proceed(items, from: 0, finished: []) }) {
            return
        }
        proceed(items, from: items.startIndex, finished: [])
    }

    /// Loads `items` from `first` on, one after another; an asynchronous plugin's completion
    /// carries on from the next item, on whatever thread it calls from.
    private func proceed(_ items: [LoadItem], from first: Int, finished: [FinishedAsset]) {
        var finished = finished
        finished.reserveCapacity(items.count)
        var index = first
        // One clock read per file: a file's end is the next one's start.
        var started = ContinuousClock.now
        while index < items.count {
            if isCancelled {
                finished += items[index...].map { FinishedAsset($0, outcome: .cancelled, duration: .zero) }
                break
            }
            let dependencies: [AssetRequest: AssetOutcome]
            switch outcomes(ofDependenciesOf: items[index]) {
            case .success(let known):
                dependencies = known
            case .failure(let error):
                finished.append(FinishedAsset(items[index], outcome: .failed(error), duration: .zero))
                reporter.failed()
                index += 1
                started = .now
                continue
            }
            let plugin = items[index].plugin
            let context = LoadContext(
                request: items[index].request, asset: items[index].asset, operation: self, contents: items[index].contents,
                dependencies: dependencies)
            if plugin.loadsAsynchronously {
                let once = OnceFlag()
                let item = items[index], soFar = finished, next = index + 1, began = started
                plugin.loader.load(context) { [self] result in
                    guard once.claim() else { return }
                    let ended = outcome(of: result, for: item)
                    proceed(items, from: next, finished: soFar + [FinishedAsset(item, outcome: ended, duration: .now - began, context: context)])
                }
                return
            }
            let ended: AssetOutcome
            do {
                ended = .loaded(try plugin.loader.load(context))
            } catch {
                ended = outcome(of: .failure(error), for: items[index])
            }
            let now = ContinuousClock.now
            finished.append(FinishedAsset(items[index], outcome: ended, duration: now - started, context: context))
            started = now
            index += 1
        }
        conclude(finished)
    }

    /// What a plugin's result means: an error thrown because the load was cancelled (or after it
    /// was) is a cancellation, any other names the file. A failure under fail-fast cancels the
    /// batch now, not when the last file of this operation is done.
    private func outcome(of result: Result<any Asset, any Error>, for item: LoadItem) -> AssetOutcome {
        switch result {
        case .success(let asset):
            return .loaded(asset)
        case .failure(let error):
            if error is CancellationError || isCancelled { return .cancelled }
            reporter.failed()
            return .failed(AssetError(path: item.request.path, wrapping: error))
        }
    }

    /// The outcomes of the item's declared dependencies, or why it must not run: a dependency
    /// failed or was cancelled (unless its plugin tolerates that).
    private func outcomes(ofDependenciesOf item: LoadItem) -> Result<[AssetRequest: AssetOutcome], AssetError> {
        guard item.hasDependencies else { return .success([:]) }
        var known = reporter.outcomes(of: item.dependencies)
        for (request, error) in item.dependencyFailures { known[request] = .failed(error) }
        guard !item.plugin.loader.toleratesFailedDependencies else { return .success(known) }
        for (request, _) in item.dependencies {
            switch known[request] {
            case .loaded: continue
            case .failed(let error): return .failure(.dependencyFailed(path: item.request.path, dependency: error))
            case .cancelled, nil: return .failure(.dependencyCancelled(path: item.request.path, dependency: request.path))
            }
        }
        return .success(known)
    }

    /// Hands the outcomes to the batch while `isFinished` is still false, then finishes.
    private func conclude(_ finished: [FinishedAsset]) {
        willChangeValue(forKey: "isFinished")
        guard state.withLock({ $0.claimFinish() }) else { return }
        reporter.finished(finished)
        _ = state.withLock { $0.markFinished() }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }

}
