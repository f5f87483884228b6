/// How loading one asset ended.
public enum AssetOutcome: Sendable {
    case loaded(any Asset)
    case failed(AssetError)
    case cancelled

    /// The asset, when it loaded.
    public var asset: (any Asset)? {
        if case .loaded(let asset) = self { return asset }
        return nil
    }

    /// Whether it loaded.
    public var isLoaded: Bool {
        if case .loaded = self { true } else { false }
    }

    /// The error, when it failed.
    public var error: AssetError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
