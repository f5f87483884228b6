/// Path arithmetic for assets: lexical normalization (no file system access, no symbolic link
/// resolution) and names resolved against the file that mentions them (atlas pages, pack entries).
@_spi(PluginSupport) public enum AssetPath {
    /// `path` with empty and `.` components removed and `..` applied, lexically.
    package static func normalized(_ path: String) -> String {
        if isNormalized(path) { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : joined
    }

    /// Whether `path` has no empty, `.` or `..` component and no trailing slash (the common case,
    /// checked without allocating).
    package static func isNormalized(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable(isNormalized) ?? Array(path.utf8).withUnsafeBufferPointer(isNormalized)
    }

    private static func isNormalized(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var length = 0, dots = 0, position = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") {
                if length == 0 && position != 0 { return false }  // only the root may be empty
                if length > 0 && length == dots && dots <= 2 { return false }  // "." or ".."
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
            position += 1
        }
        return length > 0 && !(length == dots && dots <= 2)
    }

    /// `name` resolved against the folder of `referrer` (absolute names stay as they are).
    public static func resolve(_ name: String, relativeTo referrer: String) -> String {
        guard !name.hasPrefix("/") else { return name }
        return directory(of: referrer).map { $0 + "/" + name } ?? name
    }

    /// The folder part of `path`, or `nil` for a bare file name.
    package static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    package static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
