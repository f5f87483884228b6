/// One asset to load: a file, the name to find it by afterwards, and loader options.
///
/// ```swift
/// let hero = AssetRequest(path: "sprites/hero.png", name: "hero")
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

    public init(path: String, name: String? = nil, plugin: String? = nil, options: AssetOptions = AssetOptions()) {
        self.path = path
        self.name = name ?? path
        self.plugin = plugin
        self.options = options
    }

    public var description: String { name == path ? path : "\(name) (\(path))" }
}

/// A string literal, interpolated or not (`"\(folder)/hero.png"`), is a request for that path,
/// stored under that same path.
extension AssetRequest: ExpressibleByStringInterpolation {
    /// A request for the file at `path`, stored under that same path.
    public init(stringLiteral path: String) {
        self.init(path: path)
    }
}
