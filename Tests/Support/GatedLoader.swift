import Dispatch
import Foundation
import Preload

/// A gate a test opens when it is ready: loads wait at it, so a test decides when they run
/// (to cancel a batch mid-load, to see progress before the end, to queue a second batch behind
/// the first) instead of guessing with sleeps.
public final class Gate: Sendable {
    private let open = Locked(false)
    /// Entered until the gate opens: waiting on it is woken by ``release()`` itself.
    private let opened = DispatchGroup()
    /// Signalled each time a load reaches the gate (wait on it with `waitWithoutBlocking(seconds:)`
    /// from async code).
    public let started = DispatchSemaphore(value: 0)
    /// How many steps loads took past the gate (for plugins that step, such as a decoder's rows).
    public let stepsTaken = Counter()

    /// A closed gate.
    public init() { opened.enter() }

    /// Opens the gate: every load waiting at it goes on, and later ones pass. Harmless twice.
    public func release() {
        let opening = open.withLock { open in
            defer { open = true }
            return !open
        }
        if opening { opened.leave() }
    }

    /// Blocks the calling thread until the gate opens; `false` if `timeout` passes first.
    public func waitUntilOpen(timeout: Duration) -> Bool {
        opened.wait(timeout: .now() + .nanoseconds(Int(timeout / .nanoseconds(1)))) == .success
    }
}

/// Counts calls across threads.
public final class Counter: Sendable {
    private let value = Locked(0)

    /// A count at 0.
    public init() {}

    /// Adds one.
    public func increment() { value.withLock { $0 += 1 } }

    /// The count so far.
    public var count: Int { value.withLock { $0 } }
}

/// The plugin `wrapped`, with every load held at `gate` until the test opens it: a load signals
/// ``Gate/started``, waits (stopping with `CancellationError` if its batch is cancelled
/// meanwhile), then loads as `wrapped` does. Claims, dependencies and estimates are `wrapped`'s.
///
/// ```swift
/// import Preload
/// import PreloadPack
/// import PreloadTestSupport
///
/// let gate = Gate()
/// let coordinator = try PreloadCoordinator(plugins: [GatedLoader(DataFileLoader.raw, gate: gate)])
/// let batch = coordinator.preload([AssetRequest(path: "level.txt", plugin: DataFileLoader.raw.identifier)]) { _ in }
/// _ = await gate.started.waitWithoutBlocking(seconds: 120)  // the load is running, and held
/// batch.cancel()                                           // it ends cancelled, by name
/// gate.release()
/// ```
public struct GatedLoader<Wrapped: LoaderPlugin>: LoaderPlugin {
    /// The plugin that does the loading.
    public let wrapped: Wrapped
    /// Where loads wait.
    public let gate: Gate

    /// `wrapped`, held at `gate`.
    public init(_ wrapped: Wrapped, gate: Gate) {
        self.wrapped = wrapped
        self.gate = gate
    }

    public var identifier: String { wrapped.identifier }
    public var assetKind: AssetKind { wrapped.assetKind }
    public var fileExtensions: Set<String> { wrapped.fileExtensions }
    public var acceptsDirectories: Bool { wrapped.acceptsDirectories }
    public var headerLength: Int { wrapped.headerLength }
    public func matchesSignature(_ header: [UInt8]) -> Bool { wrapped.matchesSignature(header) }
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? { wrapped.estimatedDecodedBytes(header: header) }
    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] { try wrapped.dependencies(of: request) }
    public func estimatedWork(for request: PlannedRequest) -> Int64? { wrapped.estimatedWork(for: request) }
    public var toleratesFailedDependencies: Bool { wrapped.toleratesFailedDependencies }
    public var loadsAsynchronously: Bool { wrapped.loadsAsynchronously }

    public func load(_ context: LoadContext) throws -> any Asset {
        try waitAtGate(context)
        return try wrapped.load(context)
    }

    public func load(_ context: LoadContext, completion: @escaping @Sendable (Result<any Asset, any Error>) -> Void) {
        // Held on a thread of its own: a wait at the gate must not hold one of the dispatch
        // threads that other tests' loads and planning run on.
        Thread.detachNewThread { [self] in
            do {
                try waitAtGate(context)
            } catch {
                return completion(.failure(error))
            }
            wrapped.load(context, completion: completion)
        }
    }

    /// Signals the start and waits for the gate, checking for cancellation (which has no
    /// signal of its own) every millisecond, and once more when it opens: a batch cancelled
    /// before the gate opened ends cancelled, whatever the wrapped plugin checks.
    private func waitAtGate(_ context: LoadContext) throws {
        gate.started.signal()
        while !gate.waitUntilOpen(timeout: .milliseconds(1)) { try context.checkCancellation() }
        try context.checkCancellation()
    }
}
