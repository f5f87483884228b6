import Synchronization

#if PRELOAD_TSAN
    // ThreadSanitizer cannot see `Synchronization.Mutex` on Linux: its futex-based lock is not
    // intercepted, so every access made under it is reported as a race (reproduced with ten
    // lines: 4 threads appending under one Mutex, a correct count, 11 reports). Sanitizer builds
    // (`swift test --sanitize=thread -Xswiftc -DPRELOAD_TSAN`) make `PreloadMutex` the same lock
    // plus the annotations that tell ThreadSanitizer about each acquire and release, so the
    // races it reports are real ones. Normal builds never compile this branch.

    @_silgen_name("__tsan_acquire") private func tsanAcquire(_ address: UnsafeMutableRawPointer)
    @_silgen_name("__tsan_release") private func tsanRelease(_ address: UnsafeMutableRawPointer)

    /// An address ThreadSanitizer can use to name one lock.
    private final class LockIdentity: Sendable {}

    /// `Synchronization.Mutex` with ThreadSanitizer annotations (sanitizer builds only).
    public struct PreloadMutex<Value: ~Copyable>: ~Copyable, Sendable {
        private let lock: Synchronization.Mutex<Value>
        private let identity = LockIdentity()

        /// A lock holding `value`.
        public init(_ value: consuming sending Value) {
            lock = Synchronization.Mutex(value)
        }

        /// Runs `body` with the value, under the lock.
        public borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            let address = Unmanaged.passUnretained(identity).toOpaque()
            return try lock.withLock { (value: inout sending Value) throws(E) -> sending Result in
                tsanAcquire(address)
                defer { tsanRelease(address) }
                return try body(&value)
            }
        }
    }
#else
    /// The lock every Preload module keeps its state behind: `Synchronization.Mutex`, which in
    /// sanitizer builds (`-DPRELOAD_TSAN`) becomes one ThreadSanitizer can see. Public, so that a
    /// third party's plugin keeps its state behind the same lock as the package's own plugins
    /// (``Locked`` is the same lock in a class, to share).
    public typealias PreloadMutex<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif
