import Dispatch
import Foundation
import Preload
import PreloadTestSupport
import Testing

@Suite struct AssetOperationStateTests {
    @Test func legalPathRunsPendingExecutingFinishingFinished() {
        var state = AssetOperationState()
        #expect(state.phase == .pending)
        let began = state.begin()
        #expect(began && state.phase == .executing && state.isExecuting && !state.isFinished)
        let claimed = state.claimFinish(.cancelled)
        #expect(claimed && state.phase == .finishing && !state.isFinished)
        let marked = state.markFinished()
        #expect(marked && state.isFinished && !state.isExecuting)
    }

    @Test func illegalTransitionsChangeNothing() {
        var state = AssetOperationState()
        var attempts: [Bool] = []
        attempts.append(state.markFinished())  // finished without finishing: refused
        attempts.append(state.claimFinish(.cancelled))  // cancelled before start: allowed
        attempts.append(state.begin())  // started after finishing began: refused
        attempts.append(state.claimFinish(.loaded(DataAsset(bytes: [1]))))  // second outcome: refused
        attempts.append(state.markFinished())  // allowed
        attempts.append(state.markFinished())  // twice: refused
        attempts.append(state.begin())  // after the end: refused
        #expect(attempts == [false, true, false, false, true, false, false])
        guard case .cancelled = state.outcome else {
            Issue.record("first outcome must stick, got \(String(describing: state.outcome))")
            return
        }
    }
}

@Suite struct AssetOperationTests {
    let directory: TemporaryDirectory
    let planned: PlannedRequest

    init() throws {
        directory = try TemporaryDirectory()
        let path = try directory.write("a.txt", text: "hello")
        planned = PlannedRequest(request: AssetRequest(path: path), plugin: "test", file: try FileFacts.of(path: path))
    }

    @Test func cancelledBeforeStartFinishesWithoutRunning() {
        let ran = Counter()
        let operation = ClosureAssetOperation(request: planned) { _ in
            ran.increment()
            return DataAsset(bytes: [])
        }
        operation.cancel()
        let queue = OperationQueue()
        queue.addOperation(operation)
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.count == 0)
        #expect(operation.isFinished && !operation.isExecuting)
        guard case .cancelled = operation.outcome else {
            Issue.record("expected cancelled, got \(String(describing: operation.outcome))")
            return
        }
    }

    @Test func cancelDuringWorkStopsIt() throws {
        let gate = Gate()
        let operation = GateLoader(gate: gate).makeOperation(for: planned)
        let queue = OperationQueue()
        queue.addOperation(operation)
        #expect(gate.started.wait(timeout: .now() + 10) == .success)
        operation.cancel()
        queue.waitUntilAllOperationsAreFinished()
        #expect(gate.stepsTaken.count == 0)
        guard case .cancelled = operation.outcome else {
            Issue.record("expected cancelled, got \(String(describing: operation.outcome))")
            return
        }
    }

    @Test func thrownErrorBecomesFailureNamingTheFile() {
        let operation = ClosureAssetOperation(request: planned) { _ in throw TextLoader.BadText() }
        let queue = OperationQueue()
        queue.addOperation(operation)
        queue.waitUntilAllOperationsAreFinished()
        let error = operation.outcome?.error
        #expect(error?.path == planned.path)
        #expect(error?.category == .corrupt)
        #expect(error?.description == "\(planned.path): text says FAIL")
        #expect(error?.underlying is TextLoader.BadText)
    }

    @Test func finishingTwiceIsRefused() async {
        final class Twice: AssetOperation, @unchecked Sendable {
            let results = Recorder<Bool>()
            let bothCalled = DispatchSemaphore(value: 0)
            override func execute(_ context: LoadContext) {
                results.append(finish(with: .success(DataAsset(bytes: [1]))))
                results.append(finish(with: .failure(CancellationError())))
                bothCalled.signal()
            }
        }
        let operation = Twice(request: planned)
        let queue = OperationQueue()
        queue.addOperation(operation)
        // Not waitUntilAllOperationsAreFinished: the queue is done with the operation after the
        // first finish, while the second call may not have happened yet.
        #expect(await operation.bothCalled.waitWithoutBlocking(seconds: 10))
        #expect(operation.results.all == [true, false])
        #expect(operation.outcome?.asset != nil)
    }

    /// The outcome is recorded before `isFinished` turns true, so a dependent that starts the
    /// moment its dependency finishes always sees it. Many rounds, to give a race a chance.
    @Test func dependentsAlwaysSeeTheOutcome() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let missing = Counter()
        for round in 0..<300 {
            let operation = ClosureAssetOperation(request: planned) { _ in DataAsset(bytes: [UInt8(round % 256)]) }
            let dependent = BlockOperation {
                if operation.outcome?.asset == nil { missing.increment() }
            }
            dependent.addDependency(operation)
            queue.addOperation(dependent)
            queue.addOperation(operation)
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(missing.count == 0)
    }

    /// Finishing later, from another thread (an asynchronous plugin), frees the queue slot and
    /// starts dependents.
    @Test func asynchronousFinishFromAnotherThreadReleasesDependents() {
        final class Later: AssetOperation, @unchecked Sendable {
            override func execute(_ context: LoadContext) {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    self.finish(with: .success(DataAsset(bytes: [7])))
                }
            }
        }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let first = Later(request: planned)
        let second = Later(request: planned)
        second.addDependency(first)
        queue.addOperations([first, second], waitUntilFinished: true)
        #expect(first.outcome?.asset != nil && second.outcome?.asset != nil)
        #expect(first.duration != nil && first.duration! >= .milliseconds(5))
    }
}
