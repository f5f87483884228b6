#if PRELOAD_TSAN
    import Synchronization

    // ThreadSanitizer cannot see `Synchronization.Mutex` on Linux: its futex-based lock is not
    // intercepted, so every access made under it is reported as a race (reproduced with ten
    // lines: 4 threads appending under one Mutex, a correct count, 11 reports). Sanitizer builds
    // (`swift test --sanitize=thread -Xswiftc -DPRELOAD_TSAN`) shadow `Mutex` in this module with
    // the same lock plus the annotations that tell ThreadSanitizer about each acquire and
    // release, so the races it reports are real ones. Normal builds never compile this file.

    @_silgen_name("__tsan_acquire") private func tsanAcquire(_ address: UnsafeMutableRawPointer)
    @_silgen_name("__tsan_release") private func tsanRelease(_ address: UnsafeMutableRawPointer)

    /// An address ThreadSanitizer can use to name one lock.
    private final class LockIdentity: Sendable {}

    /// `Synchronization.Mutex` with ThreadSanitizer annotations (sanitizer builds only).
    struct Mutex<Value: ~Copyable>: ~Copyable, Sendable {
        private let lock: Synchronization.Mutex<Value>
        private let identity = LockIdentity()

        init(_ value: consuming sending Value) {
            lock = Synchronization.Mutex(value)
        }

        borrowing func withLock<Result: ~Copyable, E: Error>(
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
#endif
