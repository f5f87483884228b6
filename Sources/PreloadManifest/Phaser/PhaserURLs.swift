import Foundation
import Preload

/// Where a Phaser pack's URLs point, resolved as Phaser's loader resolves them: an entry's URL
/// is `baseURL + path + url` (the section's `baseURL` and `path`, each given a trailing `/`),
/// relative to the web root (the folder of the page that runs the game), never to the pack.
struct PhaserURLs {
    /// Where a URL points.
    enum Location: Equatable {
        /// A file on disk (relative to the current directory when no web root is given), or an
        /// `http://` or `https://` URL (fetched by the coordinator's fetcher, then loaded as a
        /// file: PreloadRemote).
        case file(String)
        /// Somewhere neither reaches (`//cdn/...`, whose scheme is the page's, `data:`, `blob:`).
        case elsewhere(String)
    }

    /// The folder of the page running the game; `nil` is the current directory.
    let webRoot: String?
    /// The section's `baseURL`, with its trailing `/`.
    var baseURL = ""
    /// The section's `path`, with its trailing `/`.
    var path = ""

    /// `value` with a trailing `/` unless empty, as Phaser's `setBaseURL` and `setPath` do.
    static func folder(_ value: String) -> String { value.isEmpty || value.hasSuffix("/") ? value : value + "/" }

    /// Whether `url` names something that is not a file under the web root (a remote URL
    /// among them).
    static func isElsewhere(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return ["http:", "https:", "//", "data:", "blob:"].contains { lowered.hasPrefix($0) }
    }

    /// `url` when it is an `http://` or `https://` URL, without its fragment (`#` names an
    /// entry inside a container here; a server never sees a fragment anyway).
    static func remote(_ url: String) -> String? {
        guard AssetPath.isRemote(url) else { return nil }
        return url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }

    /// Where the entry URL `written` points; `nil` (not given) is `key.extension`, as Phaser
    /// makes it (the key without the section's prefix).
    func locate(_ written: String?, key: String, extension: String) -> Location {
        let url = written ?? key + "." + `extension`
        if let remote = Self.remote(url) { return .file(remote) }
        if Self.isElsewhere(url) { return .elsewhere(url) }
        if url.lowercased().hasPrefix("file://") { return .file(Self.decoded(String(url.dropFirst(7)))) }
        return onDisk(baseURL + path + url)
    }

    /// The folder `baseURL + path` (a multiatlas's pages are named inside it).
    func locateFolder(baseURL: String, path: String) -> Location {
        onDisk(Self.folder(baseURL) + Self.folder(path))
    }

    /// The file (or folder) the web-root-relative `url` is: its query and fragment dropped (a
    /// server ignores them for static files), percent escapes decoded, a leading `/` meaning
    /// the web root.
    private func onDisk(_ url: String) -> Location {
        if let remote = Self.remote(url) { return .file(remote) }  // a `baseURL` on a server
        if Self.isElsewhere(url) { return .elsewhere(url) }
        var relative = Substring(url)
        if let end = relative.firstIndex(where: { $0 == "?" || $0 == "#" }) { relative = relative[..<end] }
        relative = relative.drop { $0 == "/" }
        let decoded = Self.decoded(String(relative))
        guard let webRoot, !webRoot.isEmpty else { return .file(decoded) }
        guard !decoded.isEmpty else { return .file(webRoot) }
        return .file((webRoot.hasSuffix("/") ? webRoot : webRoot + "/") + decoded)
    }

    private static func decoded(_ url: String) -> String { url.removingPercentEncoding ?? url }
}
