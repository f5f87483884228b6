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
        var path = path
        return path.withUTF8(isNormalized)
    }

    /// ``isNormalized(_:)-(String)`` of a path's UTF-8 bytes.
    static func isNormalized(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let count = bytes.count
        var previous = slash  // the start is a component's start
        for index in 0..<count {
            let byte = base[index]
            if byte == slash {
                if previous == slash && index > 0 { return false }  // an empty component (only the root may be)
            } else if byte == dot && previous == slash {  // a component starting with ".": "." or ".."?
                let next = index + 1 < count ? base[index + 1] : slash
                if next == slash { return false }
                if next == dot && (index + 2 == count || base[index + 2] == slash) { return false }
            }
            previous = byte
        }
        return previous != slash  // no trailing slash (nor the root alone)
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
