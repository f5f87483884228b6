/// A value shared between threads behind one lock, by reference: for plugin code whose
/// operation finishes later on another thread, for hooks, and for tools built on Preload.
///
/// It is a `Mutex` in a class. In sanitizer builds (`swift test --sanitize=thread -Xswiftc
/// -DPRELOAD_TSAN`) that `Mutex` tells ThreadSanitizer about every lock and unlock, which it
/// cannot see by itself on Linux (see `PreloadMutex.swift`): code that locks through `Locked`
/// gets race reports only for real races, in any module.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: PreloadMutex<Value>

    /// A lock around `value`.
    public init(_ value: Value) {
        mutex = PreloadMutex(value)
    }

    /// Runs `body` with the value, under the lock. Do not call back into the same `Locked`
    /// from `body`: the lock is not recursive.
    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in body(&value) }
    }
}
