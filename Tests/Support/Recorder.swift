import Preload

/// Collects values across threads, in arrival order.
public final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    public init() {}

    public func append(_ value: Value) { values.withLock { $0.append(value) } }
    public var all: [Value] { values.withLock { $0 } }
}
