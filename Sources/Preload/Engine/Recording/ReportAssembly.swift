/// The report's assembly: the recorder's last step, which closes the ledger (its records move
/// into the report) and makes the batch's ``PreloadReport`` when it completes. Not an outlet: it
/// writes the ledger, which outlets only read; the outlets then add to the report
/// (``BatchOutlet/completed(_:ledger:)``). Requests without an outcome count as cancelled. The
/// report lists each caller's request followed by the dependencies planning found for it; its
/// results are made when they are read, so completing a batch of 20,000 files builds nothing
/// per file.
enum ReportAssembly {
    /// Ends the batch in `state` and returns its report, kept in the state too.
    static func finish(_ state: inout BatchState, elapsed: Duration, peakHeldBytes: Int) -> PreloadReport {
        let recorded = state.close()
        var report = PreloadReport(
            results: AssetResults(recorded), elapsed: elapsed, planning: state.planning, wasCancelled: state.cancelRequested)
        report.skippedPaths = state.skipped
        report.skipReasons = state.skipReasons
        report.folders = state.folders
        state.diagnostics.assets = recorded.assetOfEntry.indices.count { Int(recorded.assetOfEntry[$0]) == $0 }
        report.serialWork = state.diagnostics
        report.peakHeldBytes = peakHeldBytes
        state.report = report
        return report
    }

    /// Entries in report order: each caller's, then the dependency entries it brought. `origins`
    /// gives the caller of each run of dependency entries, by the run's first entry. The caller's
    /// entries in `folded` are left out (each is listed as the dependency of the asset it is part of).
    static func reportOrder(callers: Int, entries: Int, origins: [Int: Int], leaving folded: Set<Int> = []) -> [Int] {
        var dependencyEntries: [[Int]] = Array(repeating: [], count: callers)
        var origin = 0
        for entry in callers..<entries {
            origin = origins[entry] ?? origin
            dependencyEntries[origin].append(entry)
        }
        var order: [Int] = []
        order.reserveCapacity(entries)
        for caller in 0..<callers {
            if folded.isEmpty || !folded.contains(caller) { order.append(caller) }
            order += dependencyEntries[caller]
        }
        return order
    }
}
