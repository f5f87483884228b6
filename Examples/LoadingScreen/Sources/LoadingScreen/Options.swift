/// The example's command line.
struct Options {
    var assets = "sample-assets"
    var frames: Int?
    var screenshot: String?
    /// More to stream in with the level (a folder), for measuring the hand-off's frame times.
    var extra: String?
    var frameBudget: Duration = .milliseconds(2)

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fatalError("\(flag) needs a value") }
            switch flag {
            case "--assets": assets = value
            case "--frames": frames = Int(value)
            case "--screenshot": screenshot = value
            case "--extra": extra = value
            case "--budget-ms": frameBudget = .microseconds(Int((Double(value) ?? 2) * 1000))
            default:
                fatalError(
                    "unknown option \(flag); usage: LoadingScreen [--assets DIR] [--frames N] [--screenshot FILE.png] [--budget-ms 2] [--extra DIR]")
            }
        }
    }
}
