import Foundation
import Preload
import PreloadFlow
import PreloadTestSupport
import Testing

/// Wakes ``LoadingStateTests/eventually(_:)``: the loading states the tests make signal it when
/// they pick their next state, in the main-actor job that then puts that state in place.
@MainActor
final class StateChanges {
    private var waiter: AsyncStream<Bool>.Continuation?

    func signal() { waiter?.yield(true) }

    /// Waits (letting the main actor run) until `condition` holds, checking it at each signal;
    /// `false` if `seconds` pass first (a guard against a hang, never the way to pass).
    func until(seconds: Int = 10, _ condition: () -> Bool) async -> Bool {
        if condition() { return true }
        let (signals, continuation) = AsyncStream.makeStream(of: Bool.self)
        waiter = continuation
        let deadline = Task {
            try await Task.sleep(for: .seconds(seconds))  // the failure guard: it only ever ends the wait with `false`
            continuation.yield(false)
        }
        defer {
            deadline.cancel()
            waiter = nil
        }
        for await woken in signals {
            guard woken else { return false }
            if condition() { return true }
        }
        return false
    }
}

@MainActor
@Suite struct LoadingStateTests {
    let directory: TemporaryDirectory
    let changes = StateChanges()

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Waits (letting the main actor run) until `condition` holds, woken each time a loading
    /// state made by ``loading(_:coordinator:log:progress:)`` moves on; false after 10 s.
    func eventually(_ condition: () -> Bool) async -> Bool {
        await changes.until(condition)
    }

    func loading(
        _ requests: [AssetRequest], coordinator: PreloadCoordinator, log: Log, progress: (@MainActor (PreloadProgress) -> Void)? = nil
    ) -> LoadingState<String> {
        // The signal is sent before the state returned here is put in place, in the same
        // main-actor job: a waiter woken by it runs after that job, and sees the new state.
        LoadingState(
            coordinator: coordinator, requests: requests,
            next: { [changes] in
                changes.signal()
                return LoggingState("level", log: log)
            },
            failure: { [changes] failure in
                changes.signal()
                return LoggingState("error: \(failure.errors.map(\.category.rawValue).joined())", log: log)
            },
            onProgress: progress)
    }

    @Test func aLoadingStateMovesOnWhenItsBatchCompletes() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let requests = try (0..<5).map { AssetRequest(path: try directory.write("t\($0).txt", text: String(repeating: "x", count: 100 * ($0 + 1)))) }
        let log = Log()
        var fractions: [Double] = []
        let machine = StateMachine<String>()
        machine.set(loading(requests, coordinator: coordinator, log: log, progress: { fractions.append($0.fractionCompleted) }))
        #expect(await eventually { machine.current?.name == "level" })
        #expect(log.take() == ["+level"])
        #expect(fractions.last == 1.0 && zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "\(fractions)")
        #expect(coordinator.assets.asset(atPath: requests[0].path) != nil)
    }

    @Test func aFailedBatchLeadsToTheFailureState() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let bad = try directory.write("bad.txt", text: "FAIL")
        let log = Log()
        let machine = StateMachine<String>()
        machine.set(loading([AssetRequest(path: bad)], coordinator: coordinator, log: log))
        #expect(await eventually { machine.current?.name == "error: corrupt" })
    }

    @Test func leavingBeforeTheEndCancelsTheBatch() async throws {
        let gate = Gate()  // never opened
        let coordinator = try PreloadCoordinator(plugins: [GateLoader(gate: gate)])
        let log = Log()
        let machine = StateMachine<String>()
        let state = loading([AssetRequest(path: try directory.write("slow.gate", [1]))], coordinator: coordinator, log: log)
        machine.set(state)
        #expect(await gate.started.waitWithoutBlocking(seconds: 60), "the load never started")
        machine.set(LoggingState("title", log: log))  // the player backs out before the load ends
        let report = try await #require(state.batch).finished()
        #expect(report.wasCancelled)
        // No wait for the completion's hop to the main actor: the completion hook queued it
        // there before the batch finished, so it ran before this main-actor test resumed.
        #expect(machine.states.map(\.name) == ["title"], "a cancelled, abandoned load goes nowhere")
    }

    @Test func aPauseOnTopKeepsItLoadingAndTheLevelWaitsItsTurn() async throws {
        let gate = Gate()
        let coordinator = try PreloadCoordinator(plugins: [GateLoader(gate: gate, steps: 2)])
        let log = Log()
        let machine = StateMachine<String>()
        let state = loading([AssetRequest(path: try directory.write("slow.gate", [1]))], coordinator: coordinator, log: log)
        machine.set(state)
        machine.push(LoggingState("pause", log: log))
        gate.release()
        _ = try await #require(state.batch).finished()
        #expect(await eventually { machine.states.map(\.name) == ["level", "pause"] })
        #expect(log.take() == ["+pause"], "the level is not active under the pause menu")
        machine.pop()
        #expect(log.take() == ["-pause", "+level"])
    }

    @Test func aLoopThatPollsGetsThereThroughUpdate() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let log = Log()
        let machine = StateMachine<String>()
        let state = loading([AssetRequest(path: try directory.write("a.txt", text: "a"))], coordinator: coordinator, log: log)
        machine.set(state)
        _ = try await #require(state.batch).finished()
        machine.update(.milliseconds(16))  // no need to wait for the hooks' hop to the main actor
        #expect(machine.current?.name == "level")
    }
}
