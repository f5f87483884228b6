// `Locked`, the lock a hook or a plugin shares state behind, comes with `import Preload`.
@_exported import PreloadConcurrency
