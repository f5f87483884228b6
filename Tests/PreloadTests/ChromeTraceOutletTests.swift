import Foundation
import PreloadConcurrency
import PreloadTestSupport
import Testing

@testable import Preload

/// A batch feature's outlet added the way `docs/architecture.md` says a new one is: one file,
/// touching no load, planning or recording code (a user switches it on through three more
/// edits the doc lists: its line in `BatchOutlets`, a `PreloadOptions` member, a command flag). It writes a load trace in Chrome's trace event format (`chrome://tracing`,
/// Perfetto): one complete event (`"ph": "X"`) per asset whose plugin ran, at its start (`ts`,
/// microseconds from the batch's start) for its duration (`dur`), on its load's thread (`tid`,
/// numbered from 1 in the order threads appear), named after the asset with its plugin as the
/// category. A trace that cannot be written is the outlet's failure, reported by the batch.
final class ChromeTraceOutlet: BatchOutlet {
    let path: String
    private let origin = ContinuousClock.now
    private var events: [[String: Any]] = []
    private var threads: [ThreadIdentity: Int] = [:]

    init(path: String) {
        self.path = path
    }

    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        for asset in finished where asset.ran {
            let tid = threads[asset.thread] ?? threads.count + 1
            threads[asset.thread] = tid
            events.append([
                "name": asset.planned.request.name, "cat": asset.planned.plugin, "ph": "X", "pid": 1, "tid": tid,
                "ts": Self.microseconds(asset.started - origin), "dur": Self.microseconds(asset.duration),
            ])
        }
    }

    func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) throws {
        let json = try JSONSerialization.data(withJSONObject: ["traceEvents": events, "displayTimeUnit": "ms"], options: [.sortedKeys])
        try json.write(to: URL(fileURLWithPath: path))
    }

    private static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}

@Suite struct ChromeTraceOutletTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func aLoadTraceIsOneOutletWithAnEventPerAssetOnItsThread() async throws {
        let requests = try (0..<40).map { AssetRequest(path: try directory.write("t\($0).txt", text: "trace \($0)")) }
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(maxConcurrentLoads: 2))
        let trace = directory.file("load.trace.json")
        let report = try await coordinator.start(requests, outlets: [ChromeTraceOutlet(path: trace)]).finished()
        #expect(report.loaded.count == 40 && report.outletFailures.isEmpty)

        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        #expect(events.count == 40)
        #expect(Set(events.compactMap { $0["name"] as? String }) == Set(requests.map(\.name)))
        #expect(events.allSatisfy { $0["ph"] as? String == "X" && $0["cat"] as? String == "text" && $0["pid"] as? Int == 1 })
        let spans = events.map { (tid: $0["tid"] as? Int ?? 0, ts: $0["ts"] as? Double ?? -1, dur: $0["dur"] as? Double ?? -1) }
        #expect(spans.allSatisfy { $0.ts >= 0 && $0.dur >= 0 })
        #expect(Set(spans.map(\.tid)).isSubset(of: Set(1...8)), "a thread is one of the few the loads ran on")
        // One thread runs one file at a time: its spans do not overlap.
        for tid in Set(spans.map(\.tid)) {
            let onIt = spans.filter { $0.tid == tid }.sorted { $0.ts < $1.ts }
            for (earlier, later) in zip(onIt, onIt.dropFirst()) { #expect(earlier.ts + earlier.dur <= later.ts + 0.001) }
        }
    }

    @Test func aTraceThatCannotBeWrittenIsTheOutletsFailureNotTheBatchs() async throws {
        let requests = try (0..<5).map { AssetRequest(path: try directory.write("u\($0).txt", text: "trace \($0)")) }
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let trace = directory.file("no such folder/load.trace.json")
        let report = try await coordinator.start(requests, outlets: [ChromeTraceOutlet(path: trace)]).finished()
        #expect(report.loaded.count == 5 && report.everythingLoaded)
        #expect(report.outletFailures.count == 1)
        let failure = try #require(report.outletFailures.first)
        #expect(failure.outlet == "ChromeTraceOutlet" && failure.event == "completed")
        #expect("\(failure)".contains("no such folder"))
    }
}
