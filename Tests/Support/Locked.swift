import Synchronization

#if PRELOAD_TSAN
    @_silgen_name("__tsan_acquire") private func tsanAcquire(_ address: UnsafeMutableRawPointer)
    @_silgen_name("__tsan_release") private func tsanRelease(_ address: UnsafeMutableRawPointer)
#endif

/// State that a test's threads share, behind a `Mutex`. ThreadSanitizer cannot see
/// `Synchronization.Mutex` on Linux (its futex is not intercepted; see
/// Sources/Preload/SanitizerMutex.swift), so sanitizer builds (`-Xswiftc -DPRELOAD_TSAN`) tell it
/// about each acquire and release here too; otherwise every counter a test keeps across threads
/// would be reported as a race.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in
            #if PRELOAD_TSAN
                let address = Unmanaged.passUnretained(self).toOpaque()
                tsanAcquire(address)
                defer { tsanRelease(address) }
            #endif
            return body(&value)
        }
    }
}
