import Preload
/// Game modes as a chain of states: the machine's current state, its current substate, and so
/// on. Events go to the current state, which shares them with its substate as its
/// ``GameState/routing`` says; the machine and every state keep a push/pop stack.
///
/// ```swift
/// import Preload
/// import PreloadFlow
/// import PreloadPNG
///
/// // Your game's own, stubbed here: its input events, states and loading bar.
/// enum Input { case tap(at: SIMD2<Float>) }
/// final class Level: GameState<Input> {}
/// final class ErrorScreen: GameState<Input> {
///     init(_ failure: PreloadFailure) { super.init(name: "error") }
/// }
/// @MainActor final class LoadingBar { var value = 0.0 }
/// let bar = LoadingBar()
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let levelAssets: [AssetRequest] = [.folder("assets/level1", name: "level1")]
/// let machine = StateMachine<Input>()
/// machine.set(LoadingState(coordinator: coordinator, requests: levelAssets,
///                          next: { Level(name: "level") }, failure: { ErrorScreen($0) },
///                          onProgress: { bar.value = $0.fractionCompleted }))
/// // each frame:
/// machine.update(.milliseconds(16))
/// if !machine.send(.tap(at: [10, 20])) { /* nobody wanted it */ }
/// ```
///
/// Main-actor isolated: game modes belong to the game's main thread.
@MainActor
public final class StateMachine<Event> {
    /// A state becoming active or inactive, for logs and tests.
    public enum Change: Sendable, Hashable {
        case activated(String)
        case deactivated(String)
    }

    let stack = StateStack<Event>()
    /// Told of every activation and deactivation, in order.
    public var onChange: ((Change) -> Void)?

    /// A machine with no state; ``push(_:)`` or ``set(_:)`` enters the first.
    public init() {
        stack.machine = self
    }

    /// The states on the machine's own stack, bottom first.
    public var states: [GameState<Event>] { stack.states }
    /// The current state: the top of the machine's stack.
    public var current: GameState<Event>? { stack.states.last }
    /// The current state, its current substate, and so on down.
    public var activeChain: [GameState<Event>] {
        var chain: [GameState<Event>] = []
        var state = current
        while let next = state {
            chain.append(next)
            state = next.substate
        }
        return chain
    }

    /// Pushes `state` as the new current state (the old one is deactivated, kept below).
    public func push(_ state: GameState<Event>) { stack.push(state) }
    /// Removes the current state and returns to the one below; returns the removed one.
    @discardableResult public func pop() -> GameState<Event>? { stack.pop() }
    /// Replaces the current state with `state` (pushes it if there is none).
    public func set(_ state: GameState<Event>) { stack.set(state) }

    /// Sends `event` to the current state; returns whether any state handled it.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        current?.dispatch(event) ?? false
    }

    /// Calls ``GameState/update(_:)`` on every active state, parents first: once per frame.
    public func update(_ elapsed: Duration) {
        current?.updateChain(elapsed)
    }

    func observe(_ change: Change) { onChange?(change) }
}

/// A stack of states: the machine's, or one state's substates. Pushing, popping and setting
/// deactivate and activate states when the stack's owner is active.
@MainActor
final class StateStack<Event> {
    private(set) var states: [GameState<Event>] = []
    /// The state whose substates these are; `nil` for the machine's own stack.
    weak var owner: GameState<Event>?
    /// The machine, for the machine's own stack.
    weak var machine: StateMachine<Event>?

    /// Whether the top of this stack is on the active chain.
    private var isLive: Bool { machine != nil || owner?.isActive == true }

    func push(_ state: GameState<Event>) {
        adopt(state)
        if isLive { states.last?.deactivateChain() }
        states.append(state)
        if isLive { state.activateChain() }
    }

    func pop() -> GameState<Event>? {
        guard let top = states.last else { return nil }
        top.isLeaving = true
        if isLive { top.deactivateChain() }
        states.removeLast()
        top.container = nil
        top.isLeaving = false
        if isLive { states.last?.activateChain() }
        return top
    }

    func set(_ state: GameState<Event>) {
        guard let top = states.last else { return push(state) }
        replace(top, with: state)
    }

    func replace(_ old: GameState<Event>, with state: GameState<Event>) {
        guard let index = states.lastIndex(where: { $0 === old }) else { return }
        adopt(state)
        let isTop = index == states.count - 1
        old.isLeaving = true
        if isTop && isLive { old.deactivateChain() }
        states[index] = state
        old.container = nil
        old.isLeaving = false
        if isTop && isLive { state.activateChain() }
    }

    private func adopt(_ state: GameState<Event>) {
        precondition(state.container == nil, "\(state.name) is already in a stack; pop it first")
        state.container = self
    }
}
