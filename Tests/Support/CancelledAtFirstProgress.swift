import Preload

extension PreloadCoordinator {
    /// Starts `requests` and cancels the batch from its own progress hook the moment a decode
    /// reports progress (any later, a waiting test thread being woken, and a small image's decode
    /// would be over): how a plugin's test proves it stops between chunks of rows.
    ///
    /// ```swift
    /// import Preload
    /// import PreloadPNG
    /// import PreloadTestSupport
    /// import Testing
    ///
    /// @Test func decodeStopsBetweenRows() async throws {
    ///     let directory = try TemporaryDirectory("rows")
    ///     let big = try directory.write("big.png", PNGFixture.noise(width: 2048, height: 2048))
    ///     let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
    ///     let report = try await coordinator.startCancelledAtFirstProgress([AssetRequest(path: big)]).finished()
    ///     #expect(report.cancelled.count == 1 && report.wasCancelled)
    /// }
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
