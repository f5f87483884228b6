import Dispatch
import Foundation
import Preload
import PreloadFlow
import PreloadTestSupport
import Synchronization
import Testing

/// Counts runs per label, across threads.
final class RunCounts: Sendable {
    private let counts = Locked<[String: Int]>([:])
    let done = DispatchSemaphore(value: 0)
    func ran(_ label: String) {
        counts.withLock { $0[label, default: 0] += 1 }
        done.signal()
    }
    subscript(label: String) -> Int { counts.withLock { $0[label, default: 0] } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// Runs the jobs of the tasks that prefer it, in order, on one serial queue: once a block queued
/// on ``queue`` after a task was created has run, the task has run up to its first suspension.
final class SerialTaskExecutor: TaskExecutor {
    let queue = DispatchQueue(label: "tests.task-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

@Suite struct SequencerTests {
    enum Step: Hashable, Sendable { case login, userData, parsed, textures, started }

    /// Waits for `count` more runs recorded in `runs`.
    func waitForRuns(_ runs: RunCounts, _ count: Int) async -> Bool {
        for _ in 0..<count where !(await runs.done.waitWithoutBlocking(seconds: 120)) { return false }
        return true
    }

    /// A concurrent queue of the test's own for a sequencer's actions: once it is flushed, every
    /// action queued before has run (the sequencer queues an action inside the call that makes
    /// it ready), so a run that must not happen would have happened.
    func actionQueue() -> DispatchQueue { DispatchQueue(label: "sequencer.actions", attributes: .concurrent) }

    @Test func anActionRunsOnceWhenItsLastKeyResolvesInAnyOrder() async throws {
        let actions = actionQueue()
        let steps = Sequencer<Step>(queue: actions)
        let runs = RunCounts()
        steps.add(dependencies: [.login, .userData], label: "parse") { runs.ran("parse") }
        steps.resolve(.userData)
        steps.resolve(.userData)  // harmless
        #expect(runs.total == 0 && steps.pending.map(\.waitingFor) == [[.login]])
        steps.resolve(.login)
        #expect(await waitForRuns(runs, 1))
        steps.resolve(.login)
        await actions.flushed()  // a second run, had the second resolve queued one, is over
        #expect(runs["parse"] == 1 && steps.pending.isEmpty)
    }

    @Test func anActionAddedAfterItsKeysResolvedRunsAtOnce() async {
        let steps = Sequencer<Step>()
        let runs = RunCounts()
        steps.resolve(.textures)
        steps.add(dependencies: [.textures], label: "late") { runs.ran("late") }
        steps.add(dependencies: [], label: "no keys") { runs.ran("none") }
        #expect(await waitForRuns(runs, 2))
        #expect(runs["late"] == 1 && runs["none"] == 1)
    }

    @Test func actionsNeverRunTwiceUnderConcurrentResolves() async throws {
        let queue = actionQueue()
        let steps = Sequencer<Int>(queue: queue)
        let runs = RunCounts()
        let actions = 300
        for index in 0..<actions {
            let keys = (0..<4).map { (index * 7 + $0 * 13) % 40 }
            steps.add(dependencies: keys, label: "a\(index)") { runs.ran("a\(index)") }
        }
        // Every key resolved five times, from many threads at once, in a scrambled order.
        DispatchQueue.concurrentPerform(iterations: 200) { iteration in
            steps.resolve((iteration * 37) % 40)
        }
        #expect(await waitForRuns(runs, actions))
        await queue.flushed()  // every resolve has returned: any second run they queued is over
        #expect(runs.total == actions, "no action ran twice")
        #expect((0..<actions).allSatisfy { runs["a\($0)"] == 1 })
    }

    @Test func actionsCanResolveFurtherKeysAndAddActions() async {
        let steps = Sequencer<Step>()
        let runs = RunCounts()
        steps.add(dependencies: [.login, .userData], label: "parse") {
            runs.ran("parse")
            steps.add(dependencies: [.parsed, .textures], label: "start") { runs.ran("start") }
            steps.resolve(.parsed)
        }
        steps.resolve(.textures)
        steps.resolve(.login)
        steps.resolve(.userData)
        #expect(await waitForRuns(runs, 2))
        #expect(runs["start"] == 1 && steps.resolvedKeys == [.login, .userData, .parsed, .textures])
    }

    @Test func pendingActionsSayWhatTheyWaitFor() {
        let steps = Sequencer<Step>()
        steps.add(dependencies: [.parsed, .textures, .login], label: "start game") {}
        steps.add(dependencies: [.userData], label: "show avatar") {}
        steps.resolve(.textures)
        struct Offline: Error {}
        steps.fail(.login, with: Offline())
        let pending = steps.pending
        #expect(pending.map(\.label) == ["start game", "show avatar"])
        #expect(pending[0].waitingFor == [.parsed, .login])
        #expect(pending[0].failures.map(\.key) == [.login] && pending[0].failures.first?.error is Offline)
        #expect(pending[1].waitingFor == [.userData] && pending[1].failures.isEmpty)
    }

    @Test func aFailedKeyCallsTheFailureHandlerInsteadOrWaitsForARetry() async {
        let steps = Sequencer<Step>()
        let runs = RunCounts()
        struct Offline: Error {}
        steps.add(
            dependencies: [.login], label: "strict", action: { runs.ran("strict ran") },
            onFailure: { key, error in
                runs.ran(key == .login && error is Offline ? "strict failed" : "wrong failure")
            })
        steps.add(dependencies: [.login], label: "patient") { runs.ran("patient ran") }
        steps.fail(.login, with: Offline())
        #expect(await waitForRuns(runs, 1))
        #expect(runs["strict failed"] == 1 && steps.pending.map(\.label) == ["patient"])
        steps.resolve(.login)  // the retry worked
        #expect(await waitForRuns(runs, 1))
        #expect(runs["patient ran"] == 1 && runs["strict ran"] == 0)
    }

    @Test func actionsRunOnTheirQueueOutsideTheLock() async {
        let steps = Sequencer<Step>()
        let runs = RunCounts()
        let queue = DispatchQueue(label: "game")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "game")
        steps.add(dependencies: [.login], label: "on game queue", on: queue) {
            _ = steps.pending  // would deadlock if actions ran under the lock
            runs.ran(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
        }
        steps.resolve(.login)
        #expect(await waitForRuns(runs, 1))
        #expect(runs["game"] == 1)
    }

    @Test func aBatchResolvesItsKeyOrFailsItWithTheReport() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let good = try directory.write("good.txt", text: "fine")
        let bad = try directory.write("bad.txt", text: "FAIL")
        let steps = Sequencer<Step>()
        steps.resolve(.textures, whenFinished: coordinator.start([AssetRequest(path: good)]))
        try await steps.waitUntilResolved([.textures])
        #expect(steps.isResolved(.textures))

        steps.resolve(.userData, whenFinished: coordinator.start([AssetRequest(path: good), AssetRequest(path: bad)]))
        await #expect {
            try await steps.waitUntilResolved([.userData])
        } throws: { error in
            (error as? PreloadFailure)?.errors.map(\.path) == [bad]
        }
    }

    @Test func waitingIsCancellable() async throws {
        let steps = Sequencer<Step>()
        let executor = SerialTaskExecutor()
        let task = Task(executorPreference: executor) { try await steps.waitUntilResolved([.started]) }
        await executor.queue.flushed()  // the task has run up to its suspension: its wait is registered
        try #require(steps.pending.map(\.label) == ["waitUntilResolved"], "the wait is registered before it is cancelled")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(steps.pending.isEmpty, "the cancelled wait left no action behind")
    }
}
