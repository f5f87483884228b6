import Dispatch
import Foundation
import Preload
import PreloadFlow
import PreloadTestSupport
import Testing

/// Flat chains of stages: order, failure, jumps, weighted progress, callbacks, cancellation.
@Suite struct StageChainTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory()
        coordinator = try PreloadCoordinator(plugins: [TextLoader(), GateLoader(gate: Gate())])
    }

    /// A step that records its start and end and takes `milliseconds`.
    func step(_ name: String, _ log: Recorder<String>, milliseconds: Int = 5, result: StageResult = .next) -> Stage {
        .step(name) { _ in
            log.append("start \(name)")
            try await Task.sleep(for: .milliseconds(milliseconds))  // the step's work: models its duration, nothing waits on it
            log.append("end \(name)")
            return result
        }
    }

    @Test func eachStageStartsWhenThePreviousEnds() async throws {
        let log = Recorder<String>()
        let text = try directory.write("a.txt", text: "alpha")
        let events = Recorder<String>()
        let chain = StageChain(
            coordinator: coordinator,
            [
                step("login", log, milliseconds: 30),
                .preload("assets", [AssetRequest(path: text, name: "alpha")]),
                .step("use") { context in
                    log.append("use sees \(context.report(of: "assets")?.loaded.count ?? -1) loaded")
                    #expect(context.coordinator.assets.asset(named: "alpha", as: TextAsset.self)?.text == "alpha")
                    return .next
                },
                step("intro", log),
            ])
        let report = try await chain.run(onEvent: { event in
            if case .started(let stage) = event { events.append(stage) }
        })
        #expect(log.all == ["start login", "end login", "use sees 1 loaded", "start intro", "end intro"])
        #expect(report.stages.map(\.name) == ["login", "assets", "use", "intro"])
        #expect(events.all == ["login", "assets", "use", "intro"])
    }

    @Test func aFailingStageStopsTheChain() async throws {
        struct Offline: Error {}
        let log = Recorder<String>()
        let chain = StageChain(
            coordinator: coordinator,
            [
                step("a", log),
                .step("login") { _ in throw Offline() },
                step("never", log),
            ])
        await #expect {
            try await chain.run()
        } throws: { error in
            guard case .stageFailed(let stage, let underlying) = error as? StageChainError else { return false }
            return stage == "login" && underlying is Offline
        }
        #expect(log.all == ["start a", "end a"])

        let bad = try directory.write("bad.txt", text: "FAIL")
        let failingPreload = StageChain(coordinator: coordinator, [.preload("assets", [AssetRequest(path: bad)]), step("never", log)])
        await #expect {
            try await failingPreload.run()
        } throws: { error in
            guard case .stageFailed("assets", let underlying) = error as? StageChainError else { return false }
            return (underlying as? PreloadFailure)?.errors.first?.path == bad
        }
    }

    @Test func stagesJumpForwardAndBackByName() async throws {
        let log = Recorder<String>()
        let attempts = Counter()
        let chain = StageChain(
            coordinator: coordinator,
            [
                .step("connect") { _ in
                    attempts.increment()
                    log.append("connect \(attempts.count)")
                    return attempts.count < 3 ? .jump(to: "wait") : .jump(to: "play")
                },
                .step("wait") { _ in
                    log.append("wait"); return .jump(to: "connect")
                },
                step("tutorial", log),
                .step("play") { _ in
                    log.append("play"); return .finish
                },
                step("after finish", log),
            ])
        let report = try await chain.run()
        #expect(log.all == ["connect 1", "wait", "connect 2", "wait", "connect 3", "play"])
        #expect(report.stages.map(\.result).last == .finish)

        let lost = StageChain(coordinator: coordinator, [.step("a") { _ in .jump(to: "nowhere") }])
        await #expect {
            try await lost.run()
        } throws: { error in
            (error as? StageChainError)?.description == "stage 'a' jumped to 'nowhere', which is not a stage of the chain"
        }
    }

    @Test func progressIsSplitByWeightAndNeverGoesBack() async throws {
        let seen = Recorder<Double>()
        let laps = Counter()
        let chain = StageChain(
            coordinator: coordinator,
            [
                .step("light", weight: 1) { context in
                    context.reportProgress(0.5)
                    try await Task.sleep(for: .milliseconds(20))  // the stage's work: models its duration, nothing waits on it
                    return .next
                },
                .step("heavy", weight: 3) { context in
                    laps.increment()
                    context.reportProgress(0.5)
                    try await Task.sleep(for: .milliseconds(20))  // the stage's work, as above
                    context.reportProgress(0.25)  // backwards: dropped
                    return laps.count == 1 ? .jump(to: "light") : .next  // going back does not lower it either
                },
            ])
        _ = try await chain.run(onProgress: { seen.append($0) })
        #expect(seen.all == [0.125, 0.25, 0.625, 1.0])
    }

    @Test func theCallbackFormCompletesOnceOnTheGivenQueue() async throws {
        let queue = DispatchQueue(label: "engine")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "engine")
        let done = DispatchSemaphore(value: 0)
        let bothCalled = DispatchSemaphore(value: 0)
        let outcome = Recorder<String>()
        let chain = StageChain(
            coordinator: coordinator,
            [
                .callbackStep("timer") { _, complete in
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) {
                        complete(.success(.next))
                        complete(.success(.jump(to: "timer")))  // ignored: a step completes once
                        bothCalled.signal()
                    }
                }
            ])
        chain.start(callbackQueue: queue) { result in
            outcome.append((DispatchQueue.getSpecific(key: key) ?? "elsewhere") + (result.map { _ in " ok" }.get(or: " failed")))
            done.signal()
        }
        #expect(await done.waitWithoutBlocking(seconds: 120))
        #expect(await bothCalled.waitWithoutBlocking(seconds: 120))
        // The chain queues its completion on `queue` inside the call that completes the step: once
        // both calls returned and `queue` is flushed, a second completion would have run.
        await queue.flushed()
        #expect(outcome.all == ["engine ok"])
    }

    @Test func cancellingStopsTheRunningStageAndTheRest() async throws {
        let gate = Gate()  // never opened: the preload waits until cancelled
        let coordinator = try PreloadCoordinator(plugins: [GateLoader(gate: gate)])
        let slow = try directory.write("slow.gate", [1])
        let log = Recorder<String>()
        let started = Recorder<String>()
        let chain = StageChain(coordinator: coordinator, [.preload("assets", [AssetRequest(path: slow)]), step("never", log)])
        // Started while the cooperative pool is busy, as it is when the whole suite runs on a
        // loaded machine: on a thread of its own, the chain's task does not wait behind the test
        // bodies queued on the pool (it waited there longer than the 60 s its first stage is given).
        let task = try await whileThePoolIsBusy { thread in
            let task = Task(executorPreference: thread) {
                try await chain.run(onEvent: { event in
                    if case .started(let stage) = event { started.append(stage) }
                })
            }
            // Cancelled once the preload stage has started, while its batch is being planned,
            // queued or loaded: the outcome is the same.
            #expect(await started.wait(seconds: 60) { $0.contains("assets") }, "the preload stage never started")
            return task
        }
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            if case .cancelled = error as? StageChainError { return true }
            return false
        }
        #expect(log.all.isEmpty)
    }

    @Test func anEmptyChainSucceedsAtOnce() async throws {
        let seen = Recorder<Double>()
        let report = try await StageChain(coordinator: coordinator, []).run(onProgress: { seen.append($0) })
        #expect(report.stages.isEmpty && seen.all == [1.0])
    }
}

extension Result {
    func get(or fallback: Success) -> Success { (try? get()) ?? fallback }
}
