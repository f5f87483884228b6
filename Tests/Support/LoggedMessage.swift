import Dispatch
import Logging

/// A logger whose handler lets a thread wait until a given message is logged: a test that needs
/// the engine to have reached a point it logs (a load waiting for the memory budget) waits on
/// that event, with a generous bound, instead of sleeping and hoping.
public final class LoggedMessage: Sendable {
    /// The message waited for.
    public let message: String
    private let logged = DispatchSemaphore(value: 0)

    /// Waits for `message` (logged at any level from `debug` up).
    public init(_ message: String) {
        self.message = message
    }

    /// A logger at `debug` level that signals this waiter each time `message` is logged.
    public var logger: Logger {
        Logger(label: "preload.test") { _ in Handler(waiter: self) }
    }

    /// Waits until the message has been logged (once per logging), or `seconds` passed;
    /// returns whether it was logged.
    public func wait(seconds: Double = 300) -> Bool {
        logged.wait(timeout: .now() + seconds) == .success
    }

    private struct Handler: LogHandler {
        let waiter: LoggedMessage
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            if event.message.description == waiter.message { waiter.logged.signal() }
        }
    }
}
