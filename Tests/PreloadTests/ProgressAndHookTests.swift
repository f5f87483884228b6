import Dispatch
import Foundation
import Preload
import PreloadTestSupport
import Testing

@Suite struct ProgressAndHookTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Gate files of different sizes, each reporting progress in ten steps.
    func slowBatch(count: Int) throws -> (PreloadCoordinator, [AssetRequest], Gate) {
        let gate = Gate()
        gate.release()
        let coordinator = try PreloadCoordinator(plugins: [GateLoader(gate: gate)], configuration: .init(maxConcurrentLoads: 2))
        let requests = try (0..<count).map {
            AssetRequest(path: try directory.write("f\($0).gate", [UInt8](repeating: 1, count: 100 * ($0 + 1))))
        }
        return (coordinator, requests, gate)
    }

    @Test func progressNeverGoesBackwardsAndEndsAtExactlyOne() async throws {
        let (coordinator, requests, _) = try slowBatch(count: 12)
        let seen = Recorder<PreloadProgress>()
        let report = try await coordinator.start(
            requests, options: PreloadOptions(progressInterval: .milliseconds(1)),
            hooks: PreloadHooks(onProgress: { seen.append($0) })
        ).finished()
        let fractions = seen.all.map(\.fractionCompleted)
        #expect(report.everythingLoaded)
        #expect(fractions.count >= 5, "partial progress was reported: \(fractions)")
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "\(fractions)")
        #expect(fractions.dropLast().allSatisfy { $0 < 1.0 }, "only the final report says 1.0")
        #expect(fractions.last == 1.0)
        #expect(seen.all.last?.isFinished == true && seen.all.filter(\.isFinished).count == 1)
        #expect(seen.all.last?.completedUnitCount == seen.all.last?.totalUnitCount)
        #expect(seen.all.last?.totalUnitCount == (1...12).reduce(0) { $0 + Int64($1 * 100) }, "weighted by file bytes")
    }

    @Test func progressHookIsThrottled() async throws {
        let (coordinator, requests, _) = try slowBatch(count: 10)
        let seen = Recorder<ContinuousClock.Instant>()
        let start = ContinuousClock.now
        _ = try await coordinator.start(
            requests, options: PreloadOptions(progressInterval: .milliseconds(40)),
            hooks: PreloadHooks(onProgress: { _ in seen.append(ContinuousClock.now) })
        ).finished()
        let elapsed = ContinuousClock.now - start
        // At most one call per interval, plus the final one (and one of slack for scheduling).
        #expect(seen.all.count <= Int(elapsed / .milliseconds(40)) + 2, "\(seen.all.count) calls in \(elapsed)")
        #expect(seen.all.count >= 2)
    }

    @Test func emptyBatchReportsCompletionAndFullProgress() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let seen = Recorder<PreloadProgress>()
        let report = try await coordinator.start([], hooks: PreloadHooks(onProgress: { seen.append($0) })).finished()
        #expect(report.results.isEmpty && report.everythingLoaded)
        #expect(seen.all.map(\.fractionCompleted) == [1.0])
    }

    @Test func hooksCanCallBackIntoTheCoordinatorWithoutDeadlock() async throws {
        let a = try directory.write("a.txt", text: "a")
        let b = try directory.write("b.txt", text: "b")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let nested = Recorder<PreloadReport>()
        let readBack = Recorder<String>()
        let batch = coordinator.start(
            [AssetRequest(path: a)],
            hooks: PreloadHooks(
                onProgress: { _ in _ = coordinator.assets.count },
                onAssetLoaded: { result in
                    readBack.append((coordinator.assets.asset(named: result.request.name) as? TextAsset)?.text ?? "missing")
                },
                onCompletion: { _ in
                    // Start another batch and wait for it, from inside a hook. The bounds are
                    // for a deadlock, which never ends, not for speed: a loaded machine's
                    // Dispatch threads took more than 10 s to run the inner batch.
                    let inner = coordinator.start([AssetRequest(path: b)])
                    if let report = finishBlocking(inner, within: 120) { nested.append(report) }
                    inner.cancel()
                }))
        let report = try await batch.finished()
        #expect(report.everythingLoaded)
        #expect(readBack.all == ["a"], "the asset is in the store when its hook runs")
        #expect(nested.all.count == 1 && nested.all.first?.everythingLoaded == true)
    }

    @Test func hooksRunOnTheChosenQueueInOrder() async throws {
        let files = try (0..<20).map { try directory.write("o\($0).txt", text: "\($0)") }
        let callbacks = DispatchQueue(label: "game.callbacks", attributes: .concurrent)
        let key = DispatchSpecificKey<String>()
        callbacks.setSpecific(key: key, value: "game")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let events = Recorder<String>()
        let report = try await coordinator.start(
            files.map { AssetRequest(path: $0) }, options: PreloadOptions(callbackQueue: callbacks),
            hooks: PreloadHooks(
                onProgress: { _ in events.append(DispatchQueue.getSpecific(key: key) == "game" ? "progress" : "wrong queue") },
                onAssetLoaded: { _ in events.append(DispatchQueue.getSpecific(key: key) == "game" ? "loaded" : "wrong queue") },
                onCompletion: { _ in events.append(DispatchQueue.getSpecific(key: key) == "game" ? "done" : "wrong queue") })
        ).finished()
        #expect(report.everythingLoaded)
        #expect(!events.all.contains("wrong queue"))
        #expect(events.all.filter { $0 == "loaded" }.count == 20)
        #expect(events.all.suffix(2) == ["progress", "done"], "final progress, then completion, last")
    }

    @Test func asyncPreloadReturnsTheReport() async throws {
        let path = try directory.write("async.txt", text: "awaited")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload([AssetRequest(path: path, name: "it")])
        #expect(report.everythingLoaded)
        #expect(coordinator.assets.asset(named: "it", as: TextAsset.self)?.text == "awaited")
    }

    @Test func cancellingTheTaskCancelsTheBatch() async throws {
        let (_, requests, _) = try slowBatch(count: 4)
        let closed = Gate()  // never opens: loads wait until cancelled
        let slow = try PreloadCoordinator(plugins: [GateLoader(gate: closed)])
        // Started while the cooperative pool is busy, as it is when the whole suite runs on a
        // loaded machine: on a thread of its own, the task does not wait behind the test bodies
        // queued on the pool (it waited there longer than the 60 s its start is given).
        let task = try await whileThePoolIsBusy { thread in
            let task = Task(executorPreference: thread) { try await slow.preload(requests) }
            #expect(await closed.started.waitWithoutBlocking(seconds: 60))
            return task
        }
        task.cancel()
        let cancelled = await #expect(throws: PreloadCancelled.self) { try await task.value }
        #expect(closed.stepsTaken.count == 0)
        #expect(cancelled?.report.results.count == requests.count && cancelled?.report.wasCancelled == true, "the partial report comes with it")
    }

    @Test func eventStreamDeliversEveryEventAndEndsWithCompletion() async throws {
        let good = try directory.write("g.txt", text: "g")
        let bad = try directory.write("b.txt", text: "FAIL")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let (_, events) = coordinator.events([AssetRequest(path: good), AssetRequest(path: bad)])
        var kinds: [String] = []
        for await event in events {
            switch event {
            case .progress: kinds.append("progress")
            case .assetLoaded(let result): kinds.append("loaded \(result.request.path == good)")
            case .assetFailed(let result): kinds.append("failed \(result.outcome.error?.category == .corrupt)")
            case .completed(let report): kinds.append("completed \(report.results.count)")
            }
        }
        #expect(kinds.contains("loaded true") && kinds.contains("failed true"))
        #expect(kinds.last == "completed 2")
    }
}
