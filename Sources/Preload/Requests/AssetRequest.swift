/// One asset to load: a file, the name to find it by afterwards, and loader options. Or a
/// whole folder: ``folder(_:name:options:)``.
///
/// ```swift
/// import Preload
///
/// let root = "assets"
/// let hero = AssetRequest(path: "sprites/hero.png", name: "hero")
/// let level: [AssetRequest] = ["\(root)/ui.atlas", .folder("\(root)/level1")]
/// ```
public struct AssetRequest: Hashable, Sendable, CustomStringConvertible {
    /// The file, absolute or relative to the current directory, as the caller wrote it; an entry
    /// inside a container (a pack) is `CONTAINER#ENTRY` (`game.pak#sprites/hero.png`).
    public var path: String
    /// The name the loaded asset is stored under in the ``AssetStore``. Defaults to `path`.
    public var name: String
    /// The identifier of the plugin that must load this file, or `nil` to let the registry
    /// pick the plugin that claims it (by extension, then by content).
    public var plugin: String?
    /// Loader options; equal options for the same file merge two requests into one load.
    public var options: AssetOptions
    /// Whether this asks for every file in a folder rather than for one asset.
    public private(set) var isFolder = false
    /// For a request whose source prepared a local stand-in for its file (an `https://` URL
    /// fetched into a cache, ``AssetSource``): the path the caller named, while ``path`` is the
    /// stand-in the plugin reads (a plugin resolves names inside the file against ``path``; the
    /// batch asks for them beside this path). `nil` for a file read where it is, and in a request
    /// as the caller made it.
    public internal(set) var origin: String?

    /// A request for the file (or asset folder, such as a sprite folder) at `path`, stored under
    /// `name` (by default `path` itself), loaded by the plugin named `plugin` (by default the
    /// one that claims the file) with `options`.
    public init(path: String, name: String? = nil, plugin: String? = nil, options: AssetOptions = AssetOptions()) {
        self.path = path
        self.name = name ?? path
        self.plugin = plugin
        self.options = options
    }

    /// Every file below the folder at `path` that a plugin claims, as `preload DIR` finds them:
    /// hidden files are left out, `*.atlas` and `*.atlasc` folders are atlases, files no plugin
    /// claims are skipped (listed in ``PreloadReport/skippedPaths``), and so are entries that are
    /// not files (a FIFO, a socket, a device, a link to a folder), with the reason in
    /// ``PreloadReport/skipReasons``. Each file is a request of its own, named
    /// `NAME/RELATIVE-PATH` where `NAME` is `name` (by default `path`, so `.folder("assets")`
    /// stores `assets/hero.png`; `name: ""` stores `hero.png`, the path inside the folder), with
    /// `options`. A folder that does not exist, and one inside it
    /// that cannot be listed (no read permission), fails by its path; a link in it that leads
    /// nowhere fails by its name. A `path` that is a file, not a folder, is that one file: no
    /// plugin claiming it is a failure (``AssetError/Category/noLoader``), not a skip. The folder is walked when the batch plans, off the caller's
    /// thread.
    public static func folder(_ path: String, name: String? = nil, options: AssetOptions = AssetOptions()) -> AssetRequest {
        var request = AssetRequest(path: path, name: name, options: options)
        request.isFolder = true
        return request
    }

    /// The path as the caller named it: ``origin`` for a stand-in, else ``path``. What results,
    /// errors and the store name the asset by.
    public var requestedPath: String { origin ?? path }

    public var description: String {
        let shown = name == path ? path : "\(name) (\(path))"
        return isFolder ? "folder " + shown : shown
    }
}

/// A string literal, interpolated or not (`"\(folder)/hero.png"`), is a request for that path,
/// stored under that same path.
extension AssetRequest: ExpressibleByStringInterpolation {
    /// A request for the file at `path`, stored under that same path.
    public init(stringLiteral path: String) {
        self.init(path: path)
    }
}
