import Dispatch
import Preload
import Synchronization

extension PreloadCoordinator {
    /// Preloads `requests` through the public callback API and blocks until the report arrives:
    /// what a benchmark times, with nothing but the library's own work in between.
    public func preloadAndWait(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks()
    ) -> PreloadReport {
        let done = DispatchSemaphore(value: 0)
        let report = Mutex<PreloadReport?>(nil)
        preload(requests, options: options, hooks: hooks) { finished in
            report.withLock { $0 = finished }
            done.signal()
        }
        done.wait()
        return report.withLock { $0! }
    }
}
