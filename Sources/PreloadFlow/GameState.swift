import Preload
/// How a state routes an event between itself and its current substate.
public enum EventRouting: Sendable, Hashable {
    /// The substate tries first; the state handles only what the substate did not (the default).
    case substateFirst
    /// The state tries first; the substate gets only what the state did not handle.
    case selfFirst
    /// Both get every event, the substate first; handled if either handled it.
    case both
    /// The state alone; its substates never see events.
    case selfOnly
}

/// One mode of a game (menu, level, pause, loading), in a ``StateMachine``.
///
/// A state is **active** while it is the top of its stack and everything above it in the chain
/// is active: the machine's current state, that state's current substate, and so on down.
/// ``activate()`` runs when a state becomes active, ``deactivate()`` when it stops being active;
/// parents activate before their substates, and substates deactivate before their parents.
///
/// Every state has its own stack of substates (``push(_:)``, ``pop()``, ``set(_:)``), like the
/// machine: pushing deactivates the current substate and activates the new one, popping reverses
/// it, setting replaces the top. Subclass and override what the mode needs:
///
/// ```swift
/// import PreloadFlow
///
/// // Your game's own, stubbed here: its input events, its music.
/// enum Input { case pause, tap }
/// struct Music { func play() {} }
/// let music = Music()
///
/// final class PauseMenu: GameState<Input> {}
/// final class Level: GameState<Input> {
///     override func activate() { music.play() }
///     override func handle(_ event: Input) -> Bool {
///         guard case .pause = event else { return false }
///         push(PauseMenu(name: "pause"))
///         return true
///     }
/// }
/// ```
@MainActor
open class GameState<Event> {
    /// A name for logs and ``StateMachine/activeChain``.
    public let name: String
    /// Whether the state is on the machine's active chain.
    public internal(set) var isActive = false
    /// Whether the state is being taken out of its stack (popped or replaced), as opposed to
    /// covered by a push: true during the ``deactivate()`` that goes with it.
    public internal(set) var isLeaving = false
    /// The stack holding this state (the machine's, or its parent state's).
    weak var container: StateStack<Event>?
    /// This state's substates; the last is its current substate.
    let substack = StateStack<Event>()

    /// A state called `name` (shown in the machine's log and errors).
    public init(name: String) {
        self.name = name
        substack.owner = self
    }

    // MARK: Overridable

    /// The state became active. The default does nothing.
    open func activate() {}
    /// The state stops being active (its substates already have). The default does nothing.
    open func deactivate() {}
    /// Handles `event`; returns whether it did. The default handles nothing.
    open func handle(_ event: Event) -> Bool { false }
    /// How events are shared with the current substate (default: the substate first).
    open var routing: EventRouting { .substateFirst }
    /// Called every frame while the state is active (``StateMachine/update(_:)``), before its
    /// substate's. The default does nothing.
    open func update(_ elapsed: Duration) {}

    // MARK: Substates

    /// The substates, bottom first.
    public var substates: [GameState<Event>] { substack.states }
    /// The current substate: the top of this state's stack.
    public var substate: GameState<Event>? { substack.states.last }
    /// The state whose stack holds this one; `nil` at the machine's level or outside a machine.
    public var parent: GameState<Event>? { container?.owner }
    /// The machine this state is in.
    public var machine: StateMachine<Event>? { container?.machine ?? container?.owner?.machine }

    /// Pushes `state` as the new current substate (the old one is deactivated, kept below).
    public func push(_ state: GameState<Event>) { substack.push(state) }
    /// Removes the current substate and returns to the one below; returns the removed one.
    @discardableResult public func pop() -> GameState<Event>? { substack.pop() }
    /// Replaces the current substate with `state` (pushes it if there is none).
    public func set(_ state: GameState<Event>) { substack.set(state) }

    /// Puts `state` in this state's place in its stack (the usual end of a loading state).
    /// At the top of the stack that is ``set(_:)``; lower down, the swap happens quietly and
    /// `state` activates when it comes back to the top.
    public func replace(with state: GameState<Event>) {
        container?.replace(self, with: state)
    }

    // MARK: Machine internals

    /// Routes `event` through this state and its substates; returns whether anyone handled it.
    func dispatch(_ event: Event) -> Bool {
        switch routing {
        case .selfOnly:
            return handle(event)
        case .substateFirst:
            if substate?.dispatch(event) == true { return true }
            return handle(event)
        case .selfFirst:
            if handle(event) { return true }
            return substate?.dispatch(event) ?? false
        case .both:
            let bySubstate = substate?.dispatch(event) ?? false
            let bySelf = handle(event)
            return bySubstate || bySelf
        }
    }

    /// Activates this state, then its current substate chain.
    func activateChain() {
        guard !isActive else { return }
        isActive = true
        machine?.observe(.activated(name))
        activate()
        if isActive, let substate { substate.activateChain() }
    }

    /// Deactivates this state's active substate chain (deepest first), then this state.
    func deactivateChain() {
        guard isActive else { return }
        if let substate, substate.isActive { substate.deactivateChain() }
        deactivate()
        isActive = false
        machine?.observe(.deactivated(name))
    }

    /// Calls ``update(_:)`` down the active chain.
    func updateChain(_ elapsed: Duration) {
        guard isActive else { return }
        update(elapsed)
        substate?.updateChain(elapsed)
    }
}
