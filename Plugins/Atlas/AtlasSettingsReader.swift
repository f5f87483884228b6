import Preload

/// Reads the atlas plugin's settings, `"atlas": {...}` in a manifest entry's `"options"` or
/// `--set atlas.NAME=VALUE`:
/// - packing a sprite folder (``AtlasLoaderSettings``): `maxPageSize`, `padding`, `trim`,
///   `extrude`, `powerOfTwo`, `rotation`, `scale`;
/// - where the pages are (``AtlasPageLocation``): `pages` (the page files, in order) or
///   `pageFolder` (the folder each page's name is in);
/// - an image cut into a grid (``SpriteSheetGrid``): `grid`, an object with `frameWidth` (needed),
///   `frameHeight`, `startFrame`, `endFrame`, `margin`, `spacing`.
///
/// `"atlas": {"maxPageSize": 1024, "padding": 2, "trim": true, "extrude": 1, "powerOfTwo": false, "rotation": true, "scale": 1}`
public struct AtlasSettingsReader: PluginSettingsReader {
    /// A reader of `"atlas"` settings.
    public init() {}

    /// `"atlas"`, the plugin's identifier.
    public var key: String { "atlas" }

    /// Sets `options` from the members given (those absent keep their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        var atlas = options[AtlasLoaderSettings.self]
        let largest = AtlasLoaderSettings.largestPageSize
        if let size = try values.int("maxPageSize", in: 1...largest) { atlas.maxPageSize = size }
        if let padding = try values.int("padding", in: 0...largest) { atlas.padding = padding }
        if let trim = try values.bool("trim") { atlas.trimsTransparentBorders = trim }
        if let extrusion = try values.int("extrude", in: 0...largest) { atlas.extrusion = extrusion }
        if let powerOfTwo = try values.bool("powerOfTwo") { atlas.powerOfTwoPages = powerOfTwo }
        if let rotation = try values.bool("rotation") { atlas.allowsRotation = rotation }
        if let scale = try values.int("scale", in: 1...16) { atlas.scale = scale }
        // Packing is set when asked for (or nothing else is): pages alone leave it unset.
        if values.keys.isEmpty || !Set(values.keys).isDisjoint(with: Self.packingKeys) { options[AtlasLoaderSettings.self] = atlas }
        if let pages = try values.strings("pages") { options[AtlasPageLocation.self] = .files(pages) }
        if let folder = try values.string("pageFolder") { options[AtlasPageLocation.self] = .folder(folder) }
        if let grid = try values.object("grid") { options[SpriteSheetGrid.self] = try Self.grid(grid) }
    }

    private static let packingKeys: Set = ["maxPageSize", "padding", "trim", "extrude", "powerOfTwo", "rotation", "scale"]

    /// A grid's members, as Phaser's `frameConfig` names them and with its defaults.
    private static func grid(_ values: PluginSettingsValues) throws -> SpriteSheetGrid {
        let sizes = 1...Int(Int32.max), frames = Int(Int32.min)...Int(Int32.max), gaps = 0...Int(Int32.max)
        guard let width = try values.int("frameWidth", in: sizes) else { throw PluginSettingsProblem("'frameWidth' is missing") }
        return SpriteSheetGrid(
            frameWidth: width, frameHeight: try values.int("frameHeight", in: sizes) ?? width,
            startFrame: try values.int("startFrame", in: frames) ?? 0, endFrame: try values.int("endFrame", in: frames) ?? -1,
            margin: try values.int("margin", in: gaps) ?? 0, spacing: try values.int("spacing", in: gaps) ?? 0)
    }
}

extension AtlasLoader: ConfigurablePlugin {
    /// ``AtlasSettingsReader``.
    public var settingsReader: any PluginSettingsReader { AtlasSettingsReader() }
}
