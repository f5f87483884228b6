/// An outlet of a batch that could not do its part (a load trace that could not be written):
/// which outlet, at which event, and why. The batch goes on without that part: its loads, its
/// other outlets and its hooks are unaffected, and the failure is in its report
/// (``PreloadReport/outletFailures``).
public struct OutletFailure: Error, Sendable, CustomStringConvertible {
    /// The outlet's type name (`ChromeTraceOutlet`).
    public let outlet: String
    /// The event it failed at (`loaded`, `completed`, ...).
    public let event: String
    /// What it threw.
    public let cause: any Error

    /// `"ChromeTraceOutlet failed at completed: …"`.
    public var description: String { "\(outlet) failed at \(event): \(cause)" }
}
