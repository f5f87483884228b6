extension AssetRequest {
    /// ``origin``, by its name from when only URLs were prepared: the URL of a fetched file.
    @available(*, deprecated, renamed: "origin")
    public var remoteURL: String? { origin }
}
