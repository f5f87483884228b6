import Preload

/// Reads the map plugin's settings, `"tilemap": {"tileWidth": 16, "tileHeight": 16, "numbering": "tileIndexes"}`
/// in a manifest entry's `"options"` or `--set tilemap.NAME=VALUE`: a CSV grid's tile size and
/// what its numbers are (``TileMapLoaderSettings``; the entry names the plugin, `"plugin": "tilemap"`,
/// as Phaser's `tilemapCSV` does); a Tiled map needs none.
public struct TileMapSettingsReader: PluginSettingsReader {
    /// A reader of `"tilemap"` settings.
    public init() {}

    /// `"tilemap"`, the plugin's identifier.
    public var key: String { "tilemap" }

    /// Sets `options` from the members given (those absent keep their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        var csv = options[TileMapLoaderSettings.self]
        if let width = try values.int("tileWidth", in: 1...65536) { csv.tileWidth = width }
        if let height = try values.int("tileHeight", in: 1...65536) { csv.tileHeight = height }
        if let numbering = try values.string("numbering", oneOf: ["tileIndexes", "globalIDs"]) {
            csv.numbering = TileMapLoaderSettings.Numbering(rawValue: numbering)!
        }
        options[TileMapLoaderSettings.self] = csv
    }
}

extension TileMapLoader: ConfigurablePlugin {
    /// ``TileMapSettingsReader``.
    public var settingsReader: any PluginSettingsReader { TileMapSettingsReader() }
}
