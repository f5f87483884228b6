#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Which thread something ran on: `pthread_self()` as a number (a thread-local read, no system
/// call). Loads stamp it on what they finish (``FinishedAsset/thread``), for a timeline; the
/// batch's lock keeps its holder's, so that tests can check on which thread, and under which
/// lock, each stage runs (``BatchLock/isHeldByCurrentThread``).
struct ThreadIdentity: Hashable, Sendable {
    /// The thread's `pthread_t` as a number; 0 is no thread.
    let raw: UInt

    /// The calling thread.
    static var current: ThreadIdentity {
        #if canImport(Darwin)
            ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
        #else
            ThreadIdentity(raw: UInt(pthread_self()))
        #endif
    }
}
