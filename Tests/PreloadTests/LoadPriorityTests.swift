import Dispatch
import Foundation
@_spi(Diagnostics) import Preload
import PreloadTestSupport
import Testing

/// Loads `.hold` files (their text is their name), recording the order; `bg00` holds its worker
/// until the gate opens (the test opens it whatever happens: no deadline here, where the test's
/// own pace, behind every test body queued on the cooperative pool, would decide the outcome).
struct HoldLoader: LoaderPlugin {
    var identifier: String { "hold" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["hold"] }
    let gate: Gate
    let order = Recorder<String>()

    func load(_ context: LoadContext) throws -> any Asset {
        let name = String(decoding: try context.readContents(), as: UTF8.self)
        order.append(name)
        if name == "bg00" {
            gate.started.signal()
            while !gate.waitUntilOpen(timeout: .seconds(1)) {}  // until it opens, however late
        }
        return DataAsset(bytes: Array(name.utf8))
    }
}

/// Hooks that record `name` in `planned` on the batch's first progress call: the batch calls
/// its progress hook only once planning is over (``PreloadBatch/isPlanned``), and calls it then.
func recordingPlanning(of name: String, in planned: Recorder<String>) -> PreloadHooks {
    PreloadHooks(onProgress: { _ in planned.append(name) })
}

@Suite struct LoadPriorityTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        // bg1 keeps the only slot until the test finishes "release"; the others finish at once.
        try directory.write("bg1.delay", text: "after release")
        for name in ["bg2", "bg3", "bg4", "u1", "u2"] { try directory.write("\(name).delay", text: "0") }
    }

    /// Starts a background batch whose first load holds the only slot, then a second batch at
    /// `priority`; returns the order the loads started in once the slot is released.
    func order(secondAt priority: LoadPriority) async throws -> [String] {
        let loader = DelayLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 1))
        let requests = { (names: [String]) in names.map { AssetRequest(path: directory.file("\($0).delay"), name: $0) } }
        let planned = Recorder<String>()
        let background = coordinator.start(
            requests(["bg1", "bg2", "bg3", "bg4"]), options: PreloadOptions(priority: .background),
            hooks: recordingPlanning(of: "background", in: planned))
        // Generous deadlines, failure guards only: the whole suite runs in parallel on two cores.
        #expect(await loader.line.awaited.wait(seconds: 60) { $0.contains("release") }, "bg1 never started")
        #expect(loader.line.isAwaited("release"), "bg1 never started")
        let second = coordinator.start(
            requests(["u1", "u2"]), options: PreloadOptions(priority: priority), hooks: recordingPlanning(of: "second", in: planned))
        #expect(await planned.wait(seconds: 60) { Set($0) == ["background", "second"] }, "planning did not end")
        #expect(background.isPlanned && second.isPlanned, "planning did not end")
        loader.line.finish("release")
        #expect(try await second.finished().everythingLoaded)
        #expect(try await background.finished().everythingLoaded)
        return loader.line.started.all
    }

    @Test func urgentLoadsOvertakeWaitingBackgroundLoads() async throws {
        let order = try await order(secondAt: .urgent)
        #expect(order == ["bg1", "u1", "u2", "bg2", "bg3", "bg4"], "\(order)")
    }

    @Test func loadsOfEqualPriorityRunInTheOrderTheyWereQueued() async throws {
        let order = try await order(secondAt: .background)
        #expect(order == ["bg1", "bg2", "bg3", "bg4", "u1", "u2"], "\(order)")
    }

    /// Urgent requests overtake the loads of several files a background batch has queued: only
    /// the load already running finishes first.
    @Test func urgentLoadsOvertakeWaitingLoadsOfSeveralFiles() async throws {
        let gate = Gate()
        defer { gate.release() }  // a failed expectation must not leave bg00 held
        let loader = HoldLoader(gate: gate)
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 1))
        let names = (0..<40).map { String(format: "bg%02d", $0) }
        let planned = Recorder<String>()
        let background = coordinator.start(
            try names.map { AssetRequest(path: try directory.write("\($0).hold", text: $0), name: $0) },
            options: PreloadOptions(priority: .background), hooks: recordingPlanning(of: "background", in: planned))
        #expect(await gate.started.waitWithoutBlocking(seconds: 60), "bg00 never started")
        let urgent = coordinator.start(
            try ["u0", "u1"].map { AssetRequest(path: try directory.write("\($0).hold", text: $0), name: $0) },
            options: PreloadOptions(priority: .urgent), hooks: recordingPlanning(of: "urgent", in: planned))
        #expect(await planned.wait(seconds: 60) { Set($0) == ["background", "urgent"] }, "planning did not end")
        #expect(background.isPlanned && urgent.isPlanned, "planning did not end")
        gate.release()
        #expect(try await urgent.finished().everythingLoaded)
        let report = try await background.finished()
        #expect(report.everythingLoaded && report.diagnostics.loads == 4, "loads of 10")
        #expect(Array(loader.order.all.prefix(12)) == Array(names.prefix(10)) + ["u0", "u1"], "\(loader.order.all)")
    }

    @Test func prioritiesAreOrdered() {
        #expect(LoadPriority.allCases.sorted() == [.background, .low, .normal, .high, .urgent])
        #expect(PreloadOptions().priority == .normal)
    }
}
