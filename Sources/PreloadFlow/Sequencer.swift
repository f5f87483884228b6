import Preload
import PreloadConcurrency
import Dispatch
import Synchronization

/// What depends on what, declared in one place; the steps resolve in any order, from any thread.
///
/// A game's start-up has steps that finish unpredictably (log in, download user data, load
/// textures) and steps that need some of them first (parse once both the login and the data are
/// in). Register each step's action with the keys it waits for; call ``resolve(_:)`` as things
/// finish. An action runs exactly once, as soon as its last key is resolved (at once if they all
/// already are), on the dispatch queue given for it, never under the sequencer's lock, so it may
/// add actions and resolve further keys itself.
///
/// ```swift
/// import Preload
/// import PreloadFlow
/// import PreloadPNG
///
/// // Your game's own, stubbed here: what it does between steps, and its login and download calls.
/// func parse() {}
/// func startGame() {}
/// func login(_ done: @escaping @Sendable () -> Void) { done() }
/// func download(_ done: @escaping @Sendable () -> Void) { done() }
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let textureRequests: [AssetRequest] = [.folder("assets/textures", name: "textures")]
/// enum Step: Hashable, Sendable { case login, userData, parsed, textures }
/// let steps = Sequencer<Step>()
/// steps.add(dependencies: [.login, .userData], label: "parse") { parse(); steps.resolve(.parsed) }
/// steps.add(dependencies: [.parsed, .textures], label: "start game") { startGame() }
/// steps.resolve(.textures, whenFinished: coordinator.preload(textureRequests) { print($0) })
/// login { steps.resolve(.login) }
/// download { steps.resolve(.userData) }
/// ```
///
/// When a loading screen seems stuck, ``pending`` says which actions still wait, and for what.
public final class Sequencer<Key: Hashable & Sendable>: Sendable {
    /// Identifies an action added with ``add(dependencies:label:on:action:onFailure:)``.
    public struct ActionID: Hashable, Sendable {
        fileprivate let value: Int
    }

    /// An action that has not run: what it is called and the keys it still waits for.
    public struct PendingAction: Sendable {
        /// Identifies the action (to remove it).
        public let id: ActionID
        /// The label it was added with.
        public let label: String
        /// Its keys not resolved yet, in the order they were given.
        public let waitingFor: [Key]
        /// Those of them that failed, with the error (a failed key is still unresolved).
        public let failures: [(key: Key, error: any Error & Sendable)]
    }

    private struct Action {
        let label: String
        let keys: [Key]
        var remaining: Set<Key>
        let queue: DispatchQueue
        let run: @Sendable () -> Void
        let onFailure: (@Sendable (Key, any Error & Sendable) -> Void)?
    }

    private struct State {
        var resolved: Set<Key> = []
        var failed: [Key: any Error & Sendable] = [:]
        var actions: [Int: Action] = [:]
        var waiting: [Key: Set<Int>] = [:]
        var nextID = 0
    }

    private let state = PreloadMutex(State())
    private let queue: DispatchQueue

    /// `queue` is where actions run unless they name their own (default: a global queue).
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Registers `action` to run once every key in `dependencies` is resolved: at once (on its
    /// queue) if they already are. If one of the keys fails first, `onFailure` (when given) runs
    /// instead with that key and its error, and the action is dropped; without `onFailure` the
    /// action stays pending, and runs if the key is resolved after all (a retry).
    @discardableResult
    public func add(
        dependencies: [Key], label: String? = nil, on queue: DispatchQueue? = nil,
        action: @escaping @Sendable () -> Void, onFailure: (@Sendable (Key, any Error & Sendable) -> Void)? = nil
    ) -> ActionID {
        let queue = queue ?? self.queue
        let (id, now) = state.withLock { state -> (Int, (() -> Void)?) in
            let id = state.nextID
            state.nextID += 1
            let remaining = Set(dependencies).subtracting(state.resolved)
            if remaining.isEmpty { return (id, { queue.async(execute: action) }) }
            if let onFailure, let key = dependencies.first(where: { state.failed[$0] != nil }), let error = state.failed[key] {
                return (id, { queue.async { onFailure(key, error) } })
            }
            state.actions[id] = Action(
                label: label ?? "action \(id)", keys: dependencies, remaining: remaining, queue: queue, run: action, onFailure: onFailure)
            for key in remaining { state.waiting[key, default: []].insert(id) }
            return (id, nil)
        }
        now?()
        return ActionID(value: id)
    }

    /// Marks `key` done, from any thread; runs the actions that were waiting only for it.
    /// Resolving a key twice does nothing the second time.
    public func resolve(_ key: Key) {
        let ready = state.withLock { state -> [Action] in
            guard state.resolved.insert(key).inserted else { return [] }
            state.failed[key] = nil
            var ready: [Action] = []
            for id in state.waiting.removeValue(forKey: key) ?? [] {
                state.actions[id]?.remaining.remove(key)
                if state.actions[id]?.remaining.isEmpty == true, let action = state.actions.removeValue(forKey: id) {
                    ready.append(action)
                }
            }
            return ready
        }
        for action in ready { action.queue.async(execute: action.run) }
    }

    /// Records that `key` could not be done: actions waiting for it with a failure handler get
    /// it (once) and are dropped; the others stay pending, listed with the error.
    public func fail(_ key: Key, with error: any Error & Sendable) {
        let handlers = state.withLock { state -> [(DispatchQueue, @Sendable (Key, any Error & Sendable) -> Void)] in
            guard !state.resolved.contains(key) else { return [] }
            state.failed[key] = error
            var handlers: [(DispatchQueue, @Sendable (Key, any Error & Sendable) -> Void)] = []
            for id in state.waiting[key] ?? [] {
                guard let onFailure = state.actions[id]?.onFailure, let action = state.actions.removeValue(forKey: id) else { continue }
                for other in action.remaining { state.waiting[other]?.remove(id) }
                handlers.append((action.queue, onFailure))
            }
            return handlers
        }
        for (queue, handler) in handlers { queue.async { handler(key, error) } }
    }

    /// Drops an action that has not run yet; returns whether it was still pending.
    @discardableResult
    public func remove(_ id: ActionID) -> Bool {
        state.withLock { state in
            guard let action = state.actions.removeValue(forKey: id.value) else { return false }
            for key in action.remaining { state.waiting[key]?.remove(id.value) }
            return true
        }
    }

    /// Whether `key` has been resolved.
    public func isResolved(_ key: Key) -> Bool {
        state.withLock { $0.resolved.contains(key) }
    }

    /// Every key resolved so far.
    public var resolvedKeys: Set<Key> {
        state.withLock { $0.resolved }
    }

    /// The actions that have not run, oldest first, each with the keys it still waits for.
    public var pending: [PendingAction] {
        state.withLock { state in
            state.actions.sorted { $0.key < $1.key }.map { id, action in
                let waiting = action.keys.filter { action.remaining.contains($0) }
                return PendingAction(
                    id: ActionID(value: id), label: action.label, waitingFor: waiting,
                    failures: waiting.compactMap { key in state.failed[key].map { (key, $0) } })
            }
        }
    }
}
