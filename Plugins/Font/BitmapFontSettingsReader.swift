import Preload

/// Reads the bitmap font plugin's settings, `"bmfont": {"pages": ["font.png"]}` in a manifest
/// entry's `"options"` or `--set bmfont.pages=font.png`: `pages`, the page files in order
/// instead of the descriptor's (``BitmapFontPages/files``).
public struct BitmapFontSettingsReader: PluginSettingsReader {
    /// A reader of `"bmfont"` settings.
    public init() {}

    /// `"bmfont"`, the plugin's identifier.
    public var key: String { "bmfont" }

    /// Sets `options` from the members given (those absent keep their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        if let pages = try values.strings("pages") { options[BitmapFontPages.self].files = pages }
    }
}

extension BitmapFontLoader: ConfigurablePlugin {
    /// ``BitmapFontSettingsReader``.
    public var settingsReader: any PluginSettingsReader { BitmapFontSettingsReader() }
}
