import Dispatch
import Foundation
import PreloadConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// SIGINT (Ctrl-C) and SIGTERM while a command downloads, turned into a cancellation: the
/// downloads in flight stop, each keeps its bytes and its resume record in the cache (so the next
/// run goes on with a `Range` request), and the command then exits with 128 + the signal's
/// number. A second signal ends the process at once, as the default would.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private let received = Locked<Int32?>(nil)

    /// Watches SIGINT and SIGTERM until ``stop()``; the first one runs `cancel`.
    init(cancel: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "preload.signals")
        let received = received
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)  // Dispatch hears it instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                let first = received.withLock { received -> Bool in
                    guard received == nil else { return false }
                    received = number
                    return true
                }
                guard first else {
                    signal(number, SIG_DFL)  // the second: at once
                    raise(number)
                    return
                }
                cancel()
            }
            source.resume()
            return source
        }
    }

    /// The signal that arrived, if one did.
    var signalNumber: Int32? { received.withLock { $0 } }

    /// Stops watching: the signals have their default effect again.
    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
