import Preload

/// What a batch's outlets could not do (`PreloadReport.outletFailures`: a load log that could
/// not be written), as every subcommand that runs a batch says it: an error line each on stderr,
/// naming the outlet, the event and the cause, and exit status 1, whatever the assets did. The
/// assets are counted as they loaded: an outlet's failure is the command's, not an asset's.
enum OutletFailureLines {
    /// One line per distinct failure, in the order they first happened:
    /// `batch outlet LoadLogOutlet failed at completed: CAUSE`; an outlet that failed the same way
    /// at several events of one kind (every `loaded`) is one line ending `(12 times)`.
    static func lines(of report: PreloadReport) -> [String] {
        var order: [String] = []
        var times: [String: Int] = [:]
        for failure in report.outletFailures {
            let line = "batch outlet \(failure)"
            if times[line] == nil { order.append(line) }
            times[line, default: 0] += 1
        }
        return order.map { line in times[line, default: 1] > 1 ? "\(line) (\(times[line, default: 1]) times)" : line }
    }

    /// Prints `report`'s outlet failures as errors (`Error: batch outlet ...`); returns whether
    /// there was any, which fails the command.
    static func printed(_ report: PreloadReport) -> Bool {
        let lines = lines(of: report)
        for line in lines { printError(line) }
        return !lines.isEmpty
    }
}
