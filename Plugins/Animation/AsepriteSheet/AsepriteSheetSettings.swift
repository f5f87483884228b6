import Preload

/// Where an Aseprite export's sheet is, when not where its `meta.image` says: a request option
/// of ``AsepriteSheetLoader`` (a Phaser pack's `aseprite` entry gives its `textureURL` here).
public struct AsepriteSheetLocation: Hashable, Sendable, AssetOptionKey {
    /// The sheet's path, used as it is; `nil` reads `meta.image`.
    public var path: String?

    /// The sheet at `path`, or (`nil`) the one the export names.
    public init(path: String? = nil) {
        self.path = path
    }

    /// The sheet the export names.
    public static let defaultValue = AsepriteSheetLocation()
}

/// Reads the Aseprite export plugin's settings, `"aseprite-sheet": {"sheet": "hero.png"}` in a
/// manifest entry's `"options"` or `--set aseprite-sheet.sheet=hero.png`: `sheet`, the sheet's
/// path (``AsepriteSheetLocation``).
public struct AsepriteSheetSettingsReader: PluginSettingsReader {
    /// A reader of `"aseprite-sheet"` settings.
    public init() {}

    /// `"aseprite-sheet"`, the plugin's identifier.
    public var key: String { "aseprite-sheet" }

    /// Sets `options` from the members given (those absent keep their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        if let sheet = try values.string("sheet") { options[AsepriteSheetLocation.self] = AsepriteSheetLocation(path: sheet) }
    }
}

extension AsepriteSheetLoader: ConfigurablePlugin {
    /// ``AsepriteSheetSettingsReader``.
    public var settingsReader: any PluginSettingsReader { AsepriteSheetSettingsReader() }
}
