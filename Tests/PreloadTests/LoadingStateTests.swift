import Foundation
import Preload
import PreloadFlow
import PreloadTestSupport
import Testing

@MainActor
@Suite struct LoadingStateTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Waits (letting the main actor run) until `condition` holds; false after 10 s.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    func loading(
        _ requests: [AssetRequest], coordinator: PreloadCoordinator, log: Log, progress: (@MainActor (PreloadProgress) -> Void)? = nil
    ) -> LoadingState<String> {
        LoadingState(
            coordinator: coordinator, requests: requests,
            next: { LoggingState("level", log: log) },
            failure: { failure in LoggingState("error: \(failure.errors.map(\.category.rawValue).joined())", log: log) },
            onProgress: progress)
    }

    @Test func aLoadingStateMovesOnWhenItsBatchCompletes() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let requests = try (0..<5).map { AssetRequest(path: try directory.write("t\($0).txt", text: String(repeating: "x", count: 100 * ($0 + 1)))) }
        let log = Log()
        var fractions: [Double] = []
        let machine = StateMachine<String>()
        machine.set(loading(requests, coordinator: coordinator, log: log, progress: { fractions.append($0.fractionCompleted) }))
        #expect(try await eventually { machine.current?.name == "level" })
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
        #expect(try await eventually { machine.current?.name == "error: corrupt" })
    }

    @Test func leavingBeforeTheEndCancelsTheBatch() async throws {
        let gate = Gate()  // never opened
        let coordinator = try PreloadCoordinator(plugins: [GateLoader(gate: gate)])
        let log = Log()
        let machine = StateMachine<String>()
        let state = loading([AssetRequest(path: try directory.write("slow.gate", [1]))], coordinator: coordinator, log: log)
        machine.set(state)
        try await Task.sleep(for: .milliseconds(20))
        machine.set(LoggingState("title", log: log))  // the player backs out before the load ends
        let report = try await #require(state.batch).finished()
        #expect(report.wasCancelled)
        try await Task.sleep(for: .milliseconds(50))
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
        #expect(try await eventually { machine.states.map(\.name) == ["level", "pause"] })
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
