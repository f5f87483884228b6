import Dispatch
import Foundation
import PreloadConcurrency
import PreloadTestSupport
import Testing

@testable import Preload

/// What an outlet heard: the event, on which thread, whether that thread held the batch's
/// lock, and (for `loaded`) the names of the finished assets and whether each was in the store.
struct Heard: Sendable {
    let event: String
    let thread: ThreadIdentity
    let lockHeld: Bool?
    var finished: [(name: String, thread: ThreadIdentity, started: ContinuousClock.Instant, stored: Bool)] = []
}

/// An outlet that notes every event it hears (``Heard``), as `label:event`.
final class ProbeOutlet: BatchOutlet {
    let label: String
    let heard: Recorder<Heard>
    /// The batch, once started: its lock is what ``Heard/lockHeld`` asks about.
    let batch: Locked<PreloadBatch?>
    let store: AssetStore

    init(_ label: String, heard: Recorder<Heard>, batch: Locked<PreloadBatch?>, store: AssetStore) {
        self.label = label
        self.heard = heard
        self.batch = batch
        self.store = store
    }

    private func note(_ event: String, _ finished: [FinishedAsset] = []) {
        let lockHeld = batch.withLock { $0 }?.recorder.state.isHeldByCurrentThread
        heard.append(
            Heard(
                event: "\(label):\(event)", thread: .current, lockHeld: lockHeld,
                finished: finished.map {
                    ($0.planned.request.name, $0.thread, $0.started, store.asset(named: $0.planned.request.name) != nil)
                }))
    }

    func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) { note("planned") }
    func planningEnded(ledger: borrowing BatchState) { note("planningEnded") }
    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) { note("loaded", finished) }
    func progressDue(_ progress: PreloadProgress, ledger: borrowing BatchState) { note("progressDue") }
    func delivered(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, ledger: borrowing BatchState) {
        note("delivered")
    }
    func handedOver(asset: Int, ledger: borrowing BatchState) { note("handedOver") }
    func completing(ledger: borrowing BatchState) -> Bool {
        note("completing")
        return false
    }
    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) { note("completed") }
}

/// Loads `.probe` files, each noting when and on which thread its plugin ran, and whether that
/// thread held its batch's lock; every load first waits at `gate`.
struct ProbeLoader: LoaderPlugin {
    struct Ran: Sendable {
        let name: String
        let thread: ThreadIdentity
        let entered: ContinuousClock.Instant
        let lockHeld: Bool?
    }

    var identifier: String { "probe" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["probe"] }
    let gate: Gate
    let ran = Recorder<Ran>()
    let batch: Locked<PreloadBatch?>

    func load(_ context: LoadContext) throws -> any Asset {
        let entered = ContinuousClock.now
        _ = gate.waitUntilOpen(timeout: .seconds(120))
        let lockHeld = batch.withLock { $0 }?.recorder.state.isHeldByCurrentThread
        ran.append(Ran(name: context.request.request.name, thread: .current, entered: entered, lockHeld: lockHeld))
        return DataAsset(bytes: try context.readContents())
    }
}

/// The rules `docs/architecture.md` states of the engine, each failing when its rule breaks
/// (the doc's table names each test beside its rule).
@Suite struct EngineRulesTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `count` probe files, their requests, a coordinator for them, and the box the batch goes in.
    func probeBatch(count: Int) throws -> (PreloadCoordinator, [AssetRequest], ProbeLoader, Locked<PreloadBatch?>) {
        let requests = try (0..<count).map { AssetRequest(path: try directory.write("f\($0).probe", text: "probe \($0)")) }
        let box = Locked<PreloadBatch?>(nil)
        let loader = ProbeLoader(gate: Gate(), batch: box)
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 2))
        return (coordinator, requests, loader, box)
    }

    /// The sink is a plain call: a finished load is recorded on the load's own thread (the
    /// thread its plugin ran on), its outlets hear it under the batch's lock, and the store has
    /// its assets by then. Each finished asset says when its plugin was called and on which thread.
    @Test func aLoadIsRecordedOnItsOwnThreadUnderTheBatchLockAfterTheStore() async throws {
        let (coordinator, requests, loader, box) = try probeBatch(count: 12)
        let heard = Recorder<Heard>()
        let batch = coordinator.start(
            requests, outlets: [ProbeOutlet("probe", heard: heard, batch: box, store: coordinator.assets)])
        box.withLock { $0 = batch }
        loader.gate.release()
        let report = try await batch.finished()
        #expect(report.loaded.count == 12)
        let ran = Dictionary(uniqueKeysWithValues: loader.ran.all.map { ($0.name, $0) })
        let loaded = heard.all.filter { $0.event == "probe:loaded" }
        #expect(loaded.flatMap(\.finished).count == 12)
        for event in loaded {
            #expect(event.lockHeld == true, "an outlet hears a load under the batch's lock")
            for asset in event.finished {
                let plugin = try #require(ran[asset.name])
                #expect(event.thread == plugin.thread, "recorded on the thread its plugin ran on")
                #expect(asset.thread == plugin.thread, "the finished asset names that thread")
                #expect(asset.started <= plugin.entered, "it started no later than its plugin was called")
                #expect(asset.stored, "the store has \(asset.name) before the outlets hear of it")
            }
        }
    }

    /// Plugin code and hooks never run under the batch's lock; every event an outlet hears after
    /// planning does.
    @Test func pluginsAndHooksRunWithoutTheBatchLockAndOutletsUnderIt() async throws {
        let (coordinator, requests, loader, box) = try probeBatch(count: 8)
        let heard = Recorder<Heard>()
        let hookLock = Recorder<Bool?>()
        var hooks = PreloadHooks()
        hooks.onAssetLoaded = { _ in hookLock.append(box.withLock { $0 }?.recorder.state.isHeldByCurrentThread) }
        hooks.onProgress = { _ in hookLock.append(box.withLock { $0 }?.recorder.state.isHeldByCurrentThread) }
        hooks.onCompletion = { _ in hookLock.append(box.withLock { $0 }?.recorder.state.isHeldByCurrentThread) }
        let batch = coordinator.start(
            requests, hooks: hooks, outlets: [ProbeOutlet("probe", heard: heard, batch: box, store: coordinator.assets)])
        box.withLock { $0 = batch }
        loader.gate.release()
        _ = try await batch.finished()
        #expect(loader.ran.all.count == 8 && loader.ran.all.allSatisfy { $0.lockHeld == false })
        // A hook that ran before the test had the batch in hand (planning's first progress,
        // delivered while `start` returns) cannot be asked about the lock: it recorded `nil`.
        let asked = hookLock.all.compactMap { $0 }
        #expect(!asked.isEmpty && asked.allSatisfy { $0 == false }, "\(hookLock.all)")
        let afterPlanning = heard.all.filter { $0.lockHeld != nil && $0.event != "probe:planned" }
        #expect(!afterPlanning.isEmpty && afterPlanning.allSatisfy { $0.lockHeld == true })
    }

    /// Every outlet hears every event, in the list's order: the first-party outlets in theirs,
    /// then those the batch was started with, in the order given.
    @Test func everyOutletHearsEveryEventInTheListsOrder() async throws {
        let (coordinator, requests, loader, box) = try probeBatch(count: 10)
        let heard = Recorder<Heard>()
        let outlets: [any BatchOutlet] = ["first", "second"].map {
            ProbeOutlet($0, heard: heard, batch: box, store: coordinator.assets)
        }
        let batch = coordinator.start(requests, outlets: outlets)
        box.withLock { $0 = batch }
        loader.gate.release()
        _ = try await batch.finished()
        let events = heard.all.map(\.event)
        #expect(events.count % 2 == 0 && events.count >= 2 * (10 + 2))
        for pair in stride(from: 0, to: events.count - 1, by: 2) {
            let event = events[pair].dropFirst("first:".count)
            #expect(events[pair] == "first:\(event)" && events[pair + 1] == "second:\(event)")
        }
        let order = BatchOutlets(
            options: PreloadOptions(handOff: AssetHandOff()), events: EventOutlet(hooks: PreloadHooks(), callbackQueue: nil),
            adding: [ProbeOutlet("added", heard: heard, batch: box, store: coordinator.assets)]
        ).list.map { "\(type(of: $0))" }
        #expect(order == ["ProgressOutlet", "TimingsOutlet", "TransferOutlet", "EventOutlet", "HandOffOutlet", "ProbeOutlet"])
    }

    /// The hand-off's receipts lead to the recorder, but the engine's thread that drains them
    /// never completes the batch: the last hand-over lets the batch end on another thread.
    @Test func theLastHandOverCompletesTheBatchOffTheDrainingThread() async throws {
        let (coordinator, requests, loader, box) = try probeBatch(count: 6)
        let heard = Recorder<Heard>()
        let handOff = AssetHandOff()
        let batch = coordinator.start(
            requests, options: PreloadOptions(handOff: handOff, completesAfterHandOff: true),
            outlets: [ProbeOutlet("probe", heard: heard, batch: box, store: coordinator.assets)])
        box.withLock { $0 = batch }
        loader.gate.release()
        #expect(await handOff.waitUntilHolding(6, seconds: 120))
        // Every load has finished and the completion waits for the hand-off: the hand-over is what ends it.
        #expect(await heard.wait(seconds: 120) { $0.contains { $0.event == "probe:completing" } })
        let drainer = Recorder<ThreadIdentity>()
        Thread.detachNewThread {
            drainer.append(.current)
            handOff.drain(budget: .seconds(60)) { _ in nil }
        }
        let report = try await batch.finished()
        #expect(report.loaded.count == 6)
        let drainingThread = try #require(drainer.all.first)
        let completed = try #require(heard.all.first { $0.event == "probe:completed" })
        #expect(completed.thread != drainingThread, "the report was assembled on the engine's thread")
        #expect(completed.lockHeld == true)
    }

    /// An outlet that throws is reported, typed, in the batch's report; the batch, the outlets
    /// after it and the failed outlet's later events go on.
    @Test func anOutletThatThrowsIsReportedAndTheBatchGoesOn() async throws {
        struct Refused: Error {}
        final class Refusing: BatchOutlet {
            let tries = Counter()
            func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) throws {
                tries.increment()
                throw Refused()
            }
            func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) throws { throw Refused() }
        }
        let (coordinator, requests, loader, box) = try probeBatch(count: 9)
        let heard = Recorder<Heard>()
        let refusing = Refusing()
        let batch = coordinator.start(
            requests, outlets: [refusing, ProbeOutlet("after", heard: heard, batch: box, store: coordinator.assets)])
        box.withLock { $0 = batch }
        loader.gate.release()
        let report = try await batch.finished()
        #expect(report.loaded.count == 9)
        let loads = heard.all.filter { $0.event == "after:loaded" }
        #expect(loads.flatMap(\.finished).count == 9, "the outlet after the failed one heard every load")
        #expect(refusing.tries.count == loads.count, "the failed outlet still heard every load")
        #expect(report.outletFailures.count == loads.count + 1)
        #expect(report.outletFailures.allSatisfy { $0.outlet == "Refusing" && $0.cause is Refused })
        #expect(report.outletFailures.map(\.event).filter { $0 == "completed" }.count == 1)
        #expect(report.outletFailures.last?.description.hasPrefix("Refusing failed at completed") == true)
    }

    /// Planning's new assets reach the outlets a chunk at a time (one handing on of the ledger
    /// for them all): an outlet that throws for one asset is reported for that asset alone and
    /// still hears every other, and the outlets after it hear every asset.
    @Test func anOutletThatRefusesOnePlannedAssetHearsTheOthers() async throws {
        struct Refused: Error {}
        final class RefusingOdd: BatchOutlet {
            let heard = Recorder<Int>()
            func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) throws {
                heard.append(asset)
                if asset % 2 == 1 { throw Refused() }
            }
        }
        final class Listening: BatchOutlet {
            let heard = Recorder<Int>()
            func planned(asset: Int, weight: Int64, ledger: borrowing BatchState) { heard.append(asset) }
        }
        let (coordinator, requests, loader, box) = try probeBatch(count: 40)
        let refusing = RefusingOdd()
        let listening = Listening()
        let batch = coordinator.start(requests, outlets: [refusing, listening])
        box.withLock { $0 = batch }
        loader.gate.release()
        let report = try await batch.finished()
        #expect(report.loaded.count == 40)
        #expect(refusing.heard.all.sorted() == Array(0..<40), "the refusing outlet heard every planned asset")
        #expect(listening.heard.all.sorted() == Array(0..<40))
        #expect(report.outletFailures.count == 20)
        #expect(report.outletFailures.allSatisfy { $0.event == "planned" && $0.cause is Refused })
    }

    /// The budget holds a waiting load's resumption, not a thread: the load resumes on a global
    /// queue's thread, never on the thread that gave the bytes back (a load's, recording its
    /// end, or the engine's, handing an asset over).
    @Test func aLoadTheBudgetHeldResumesOffTheThreadThatGaveBytesBack() async throws {
        let budget = MemoryBudget(limit: 1000)
        #expect(budget.acquire(800) {})
        let resumed = Recorder<ThreadIdentity>()
        #expect(!budget.acquire(800) { resumed.append(.current) }, "it waits: 1600 bytes do not fit 1000")
        let releasing = Recorder<ThreadIdentity>()
        Thread.detachNewThread {
            releasing.append(.current)
            budget.release(800)
        }
        #expect(await resumed.wait(forCount: 1, seconds: 120))
        #expect(resumed.all.first != releasing.all.first)
        #expect(budget.peak == 800)
    }
}
