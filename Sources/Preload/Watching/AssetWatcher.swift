import Foundation
import PreloadConcurrency

/// Reloads assets whose files change on disk while the game runs: an artist re-exports an atlas,
/// and the running game shows it.
///
/// Watch what a batch loaded (and what it failed to load, so that a fixed file loads); a change to
/// any file behind an asset (its own, an atlas's page, a pack file, a sprite folder's contents)
/// whose bytes differ from those last seen (a file saved again unchanged reloads nothing)
/// reloads the asset after a short debounce (editors write a file in several steps), swaps it
/// into the coordinator's store (each name is replaced in one step, the asset with its
/// dependencies), and calls `onReload` on the hook queue. A reload that fails, or a file that is
/// deleted, keeps the old asset and says so.
///
/// Folders the batch walked (``AssetRequest/folder(_:name:options:)``) are watched as folders:
/// a file added anywhere below one that a plugin claims, by the walk's rules, loads into the
/// store under the name the walk would have given it (``AssetReload/isNew``). Every watched
/// folder is watched by its path: deleted and made again (an exporter that wipes its output, a
/// `git checkout`), it is watched again, what it holds reloads and what is new loads.
/// Nothing is watched unless asked; ``stop()`` (or releasing the watcher) frees its descriptors.
///
/// ```swift
/// import Preload
///
/// let coordinator = try PreloadCoordinator(plugins: [])  // your plugins here
/// let report = try await coordinator.preload([.folder("assets")])
/// let watcher = try AssetWatcher(coordinator: coordinator) { reload in
///     print(reload)  // "reloaded assets/hero.png", "added assets/coin.png", "failed ...: ...; the loaded asset stays"
/// }
/// try watcher.watch(report)
/// ```
///
/// Linux only (inotify); elsewhere the initializer throws ``WatchError/unavailable(_:)``.
public final class AssetWatcher: Sendable {
    /// The coordinator whose store reloads go into.
    public let coordinator: PreloadCoordinator
    /// How long after the last change to a file the reload starts.
    public let debounce: Duration
    private let options: PreloadOptions
    private let onReload: @Sendable (AssetReload) -> Void
    private let callbackQueue: DispatchQueue
    private let timers = DispatchQueue(label: "preload.watcher.debounce")
    private let monitor = PreloadMutex<FolderMonitor?>(nil)
    private let state = PreloadMutex(WatchTable())

    /// A watcher reloading into `coordinator`'s store with `options` (its plugin options do not
    /// matter: each asset reloads with its own request), calling `onReload` on `options`' hook
    /// queue (else the coordinator's, else a private serial queue).
    public init(
        coordinator: PreloadCoordinator, debounce: Duration = .milliseconds(200), options: PreloadOptions = PreloadOptions(),
        onReload: @escaping @Sendable (AssetReload) -> Void
    ) throws(WatchError) {
        self.coordinator = coordinator
        self.debounce = debounce
        var options = options
        options.storesAssets = false  // stored here, only what reloaded whole
        options.failurePolicy = .collectAll
        self.options = options
        self.onReload = onReload
        callbackQueue =
            options.callbackQueue ?? coordinator.configuration.callbackQueue ?? DispatchQueue(label: "preload.watcher.callbacks")
        let monitor = try FolderMonitor { [weak self] path in self?.changed(path) }
        self.monitor.withLock { $0 = monitor }
    }

    deinit { stop() }

    /// Watches every asset `report` loaded (the caller's requests, with the files their
    /// dependencies come from) and every one it failed to load, and every folder it walked, with
    /// the folders below it; an asset watched already is watched with its new files.
    public func watch(_ report: PreloadReport) throws(WatchError) {
        let (folders, walked) = state.withLock { $0.record(report) }
        try monitor.withLock { (monitor) throws(WatchError) in
            guard let monitor else { return }
            for folder in folders.sorted() { try monitor.watch(folder: folder) }
        }
        guard !walked.isEmpty else { return }
        let (added, failure) = walkAgain(walked, changed: [])
        // A file added since the batch walked (or while watching started) loads as one added later.
        if !added.isEmpty { for request in walked { walkSoon(WatchTable.file(of: request.path)) } }
        if let failure { throw failure }
    }

    /// The store names watched, sorted.
    public var watchedNames: [String] { state.withLock { $0.assets.keys.sorted() } }

    /// How many folders the kernel watches for this watcher (one per folder holding watched
    /// files, and per folder a watched batch walked), not counting those gone and waited for: 0
    /// once stopped.
    public var watchedFolderCount: Int { monitor.withLock { $0?.folderCount ?? 0 } }

    /// Stops watching and frees the descriptors. A reload under way still finishes.
    public func stop() {
        let stopped = monitor.withLock { monitor in
            defer { monitor = nil }
            return monitor
        }
        stopped?.stop()
        state.withLock { $0.isStopped = true }
    }

    // MARK: Changes, debounced

    private func changed(_ path: String) {
        guard let generation = state.withLock({ $0.noteChange(path) }) else { return }
        timers.asyncAfter(deadline: .now() + debounce.dispatchInterval) { [weak self] in self?.settle(generation) }
    }

    /// Walks the walked folders holding `folder` again after the debounce.
    private func walkSoon(_ folder: String) {
        guard let generation = state.withLock({ $0.noteWalk(of: folder) }) else { return }
        timers.asyncAfter(deadline: .now() + debounce.dispatchInterval) { [weak self] in self?.settle(generation) }
    }

    /// Runs when no change came for ``debounce``: reloads what the changes touch and loads files
    /// added to walked folders, one batch at a time (changes during a reload wait for it).
    private func settle(_ generation: Int) {
        guard let work = state.withLock({ $0.takeChanges(ifLatest: generation) }) else { return }
        for (name, missing) in work.missing {
            guard let watched = state.withLock({ $0.assets[name] }) else { continue }
            deliver(AssetReload(name: name, path: watched.request.path, changedFiles: work.changed, outcome: .fileMissing(missing)))
        }
        let (added, failure) = work.rescan.isEmpty ? ([], nil) : walkAgain(work.rescan, changed: work.changed)
        if case .cannotWatch(let folder, let reason) = failure {
            let error = AssetError(path: folder, category: .unreadable, reason: "cannot watch it for new files: \(reason)")
            deliver(AssetReload(name: folder, path: folder, changedFiles: work.changed, outcome: .failed(error), isNew: true))
        }
        let requests = work.reload.compactMap { name in state.withLock { $0.assets[name]?.request } } + added
        guard !requests.isEmpty else { return finishReload() }
        coordinator.preload(requests, options: options) { [weak self] report in
            self?.swapIn(report, changed: work.changed, added: Set(added.map(\.name)))
        }
    }

    /// Walks `folders` (the caller's folder requests) again, as the batch did, and watches the
    /// folders below them it does not watch yet (a folder made since: what was written into it
    /// before its watch began is found by walking again, which its change sets off). Reports what
    /// cannot be loaded as found; returns the requests for files the watcher does not know, and
    /// the first folder that cannot be watched.
    private func walkAgain(_ folders: [AssetRequest], changed: [String]) -> (added: [AssetRequest], failure: WatchError?) {
        let found = FolderDiscovery(registry: coordinator.registry).expand(folders)
        let (requests, unloadable) = state.withLock { $0.added(in: found) }
        var failure: WatchError?
        // A sprite folder added is watched before it loads, so that a sprite written meanwhile reloads it.
        let assetFolders = requests.map { WatchTable.file(of: $0.path) }.filter(FolderDiscovery.isDirectory)
        let new = monitor.withLock { monitor in
            (found.folders.map(WatchTable.file(of:)) + assetFolders).filter { folder in
                do throws(WatchError) { return try monitor?.watch(folder: folder) == true } catch {
                    failure = failure ?? error
                    return false
                }
            }
        }
        for folder in new { walkSoon(folder) }
        for error in unloadable {
            deliver(AssetReload(name: error.path, path: error.path, changedFiles: changed, outcome: .failed(error), isNew: true))
        }
        return (requests, failure)
    }

    /// Stores each caller that loaded whole, with its dependencies, and reports every caller
    /// (those named in `added` as new).
    private func swapIn(_ report: PreloadReport, changed: [String], added: Set<String>) {
        for group in report.resultsByCaller {
            let caller = group[0]
            let isNew = added.contains(caller.request.name)
            switch caller.outcome {
            case .loaded(let asset):
                let entries = group.compactMap { result in
                    result.outcome.asset.map {
                        AssetStore.Entry(
                            name: result.request.name, path: result.request.path, plugin: result.plugin ?? "", asset: $0,
                            isDependency: result.isDependency)
                    }
                }
                coordinator.assets.insert(entries)
                deliver(
                    AssetReload(
                        name: caller.request.name, path: caller.request.path, changedFiles: changed, outcome: .reloaded(asset), isNew: isNew))
            case .failed(let error):
                deliver(
                    AssetReload(
                        name: caller.request.name, path: caller.request.path, changedFiles: changed, outcome: .failed(error), isNew: isNew))
            case .cancelled:
                continue
            }
        }
        _ = try? watch(report)  // an atlas may have gained a page
        finishReload()
    }

    private func finishReload() {
        guard let generation = state.withLock({ $0.endReload() }) else { return }
        timers.asyncAfter(deadline: .now() + debounce.dispatchInterval) { [weak self] in self?.settle(generation) }
    }

    private func deliver(_ reload: AssetReload) {
        callbackQueue.async { [onReload] in onReload(reload) }
    }
}
