extension AssetOutcome {
    /// `"loaded"`, `"failed"` or `"cancelled"`: the outcome as `preload --json` spells it.
    public var status: String {
        switch self {
        case .loaded: "loaded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}
