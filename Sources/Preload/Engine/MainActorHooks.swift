import Dispatch

extension PreloadHooks {
    /// Hooks isolated to the main actor, for a game whose loading screen, scene graph or GPU
    /// context lives there: no `MainActor.assumeIsolated`, no `Task { @MainActor in }`.
    ///
    /// They run on the main queue, one at a time and in the batch's order (the last progress
    /// before the completion), whatever ``PreloadOptions/callbackQueue`` says. The main actor
    /// must be free to run them: `await` the batch from it, or let the main run loop turn.
    ///
    /// On Linux the main actor is the main OS thread only until a top-level `await`: in an async
    /// `main.swift`, libdispatch serves the main queue (and so these hooks) from another thread.
    /// A window or GL context bound to the main thread is used from a synchronous `main.swift`
    /// that turns `RunLoop.main.run(until: Date())` once per frame (the hooks then run on the
    /// main thread), or from an ``AssetHandOff`` drained by the thread that owns it
    /// (<doc:IntoYourEngine>).
    ///
    /// ```swift
    /// import Preload
    ///
    /// @MainActor final class LoadingScreen {
    ///     var bar = 0.0
    ///     func hooks() -> PreloadHooks {
    ///         .onMainActor(onProgress: { self.bar = $0.fractionCompleted })
    ///     }
    /// }
    /// ```
    public static func onMainActor(
        onProgress: (@MainActor @Sendable (PreloadProgress) -> Void)? = nil,
        onAssetLoaded: (@MainActor @Sendable (AssetResult) -> Void)? = nil,
        onAssetFailed: (@MainActor @Sendable (AssetResult) -> Void)? = nil,
        onCompletion: (@MainActor @Sendable (PreloadReport) -> Void)? = nil
    ) -> PreloadHooks {
        var hooks = PreloadHooks(
            onProgress: onProgress.map(isolated), onAssetLoaded: onAssetLoaded.map(isolated),
            onAssetFailed: onAssetFailed.map(isolated), onCompletion: onCompletion.map(isolated))
        hooks.runsOnMainActor = true
        return hooks
    }

    /// `hook` called where it runs: on the main queue, which is the main actor's.
    private static func isolated<Value: Sendable>(_ hook: @escaping @MainActor @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
        { value in MainActor.assumeIsolated { hook(value) } }
    }
}
