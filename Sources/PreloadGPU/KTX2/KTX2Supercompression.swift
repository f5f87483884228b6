/// How a KTX2 file stores its levels' bytes: its `supercompressionScheme`.
public enum KTX2Supercompression: UInt32, Sendable, Hashable, CaseIterable {
    /// As they are, each level on its format's alignment (scheme 0): a loader can upload them
    /// straight from a memory-mapped file.
    case none = 0
    /// Each level compressed on its own with Zstandard (scheme 2), through libzstd (Debian's
    /// `libzstd1`, opened at run time). Smaller files; loading inflates each level once.
    case zstd = 2
}
