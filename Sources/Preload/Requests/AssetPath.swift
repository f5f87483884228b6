#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Path arithmetic for assets: lexical normalization (no file system access, no symbolic link
/// resolution) and names resolved against the file that mentions them (atlas pages, pack entries).
public enum AssetPath {
    /// `path` with empty and `.` components removed and `..` applied, lexically (`a/./b/../c/`
    /// → `a/c`); leading `..` components of a relative path stay. Two names of one file in a
    /// description (an atlas's pages) compare equal once normalized.
    public static func normalized(_ path: String) -> String {
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
        guard base[count - 1] != slash else { return false }  // a trailing slash (or the root alone)
        // Only what follows a slash (or starts the path) can be irregular: `memchr` finds them.
        var start = 0  // where the component being checked starts
        while true {
            if base[start] == dot {  // "." or ".."
                let next = start + 1 < count ? base[start + 1] : slash
                if next == slash { return false }
                if next == dot && (start + 2 == count || base[start + 2] == slash) { return false }
            }
            guard let found = memchr(base + start, Int32(slash), count - start) else { return true }
            let slashAt = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if slashAt + 1 < count && base[slashAt + 1] == slash { return false }  // an empty component
            start = slashAt + 1
            if start == count { return false }
        }
    }

    /// Whether `path` is a remote file's URL (`http://` or `https://`, the scheme in any case):
    /// fetched by the coordinator's ``RemoteFetching`` before it is planned.
    public static func isRemote(_ path: String) -> Bool {
        // Most paths are files: their first byte answers, before an iterator is made (planning
        // asks once per request).
        guard let first = path.utf8.first, first | 0x20 == UInt8(ascii: "h") else { return false }
        var bytes = path.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if next.map({ $0 | 0x20 }) == UInt8(ascii: "s") { next = bytes.next() }
        return next == UInt8(ascii: ":") && bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
    }

    /// `name` resolved against the folder of `referrer` (absolute names stay as they are).
    public static func resolve(_ name: String, relativeTo referrer: String) -> String {
        guard !name.hasPrefix("/") else { return name }
        return directory(of: referrer).map { $0 + "/" + name } ?? name
    }

    /// `name` resolved against the folder of `referrer`, inside the container `containerPrefix`
    /// names when it names one (`game.zip#`): there the name is resolved against the referrer's
    /// folder inside the container (`ui/../x.png` is the container's `x.png`, where normalizing
    /// the whole path would climb out of it), and `nil` for a name that reaches outside it (an
    /// absolute name, or `..` past its root). What an atlas's pages, a font's pages and a map's
    /// tilesets and images resolve by.
    public static func resolve(_ name: String, relativeTo referrer: String, inside containerPrefix: String?) -> String? {
        guard let prefix = containerPrefix, referrer.hasPrefix(prefix) else { return resolve(name, relativeTo: referrer) }
        guard !name.hasPrefix("/") else { return nil }
        let inside = normalized(resolve(name, relativeTo: String(referrer.dropFirst(prefix.count))))
        guard !inside.isEmpty, !inside.hasPrefix("/"), inside != "..", !inside.hasPrefix("../") else { return nil }
        return prefix + inside
    }

    /// The folder part of `path` (`ui/hero.png` → `ui`, `/hero.png` → `/`), or `nil` for a bare
    /// file name.
    public static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path` (`ui/hero.png` → `hero.png`), for messages and for names
    /// derived from a file's.
    public static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The file name's extension after its last dot, lowercase (`hero.PNG` → `png`); empty
    /// when the name has no dot or only a leading one (`.hidden`).
    public static func fileExtension(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
