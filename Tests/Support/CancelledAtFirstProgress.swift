import Preload

extension PreloadCoordinator {
    /// Starts `requests` and cancels the batch from its own progress hook the moment a decode
    /// reports progress (any later, a waiting test thread being woken, and a small image's decode
    /// would be over): how a plugin's test proves it stops between chunks of rows.
    ///
    /// ```swift
    /// let report = try await coordinator.startCancelledAtFirstProgress([AssetRequest(path: big)]).finished()
    /// #expect(report.cancelled.count == 1 && report.wasCancelled)
    /// ```
    public func startCancelledAtFirstProgress(_ requests: [AssetRequest]) -> PreloadBatch {
        let held = Locked<PreloadBatch?>(nil)
        let batch = start(
            requests, options: PreloadOptions(progressInterval: .zero),
            hooks: PreloadHooks(onProgress: { progress in
                if progress.fractionCompleted > 0 && !progress.isFinished { held.withLock { $0 }?.cancel() }
            }))
        held.withLock { $0 = batch }
        return batch
    }
}
