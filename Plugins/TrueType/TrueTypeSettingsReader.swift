import Preload

/// Reads the TrueType plugin's settings, `"options": {"truetype": {...}}` in a manifest entry or
/// `--set truetype.NAME=VALUE` on the command line, into
/// ``TrueTypeFontLoaderSettings``: `size` (pixels), `characters` (a string of the characters to render)
/// and `charset` (`"ascii"` or `"latin1"`, joined with `characters`; ASCII when neither is given),
/// `padding`, `spacing`, `maxPageSize`, `hinting` (`"normal"`, `"light"`, `"off"`), `antialias`,
/// `face` (a collection's face), `alpha` (`"straight"`, `"premultiplied"`).
///
/// A manifest reads them when its registry has the TrueType plugin
/// (``TrueTypeFontLoader`` is a `ConfigurablePlugin` with this reader).
public struct TrueTypeSettingsReader: PluginSettingsReader {
    /// A reader of `"truetype"` options.
    public init() {}

    /// `"truetype"`, the plugin's identifier.
    public var key: String { "truetype" }

    /// Sets `options`' ``TrueTypeFontLoaderSettings`` from the object's members (those absent keep
    /// their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        var font = options[TrueTypeFontLoaderSettings.self]
        if let size = try values.int("size", in: 1...TrueTypeFontLoaderSettings.largestPixelSize) { font.pixelSize = size }
        let characters = try values.string("characters")
        let charset = try values.string("charset", oneOf: ["ascii", "latin1"]).map { $0 == "ascii" ? TrueTypeCharacters.printableASCII : .latin1 }
        if characters != nil || charset != nil {
            font.characters = TrueTypeCharacters(characters ?? "").union(charset ?? TrueTypeCharacters(""))
        }
        let margins = 0...TrueTypeFontLoaderSettings.widestMargin
        if let padding = try values.int("padding", in: margins) { font.padding = padding }
        if let spacing = try values.int("spacing", in: margins) { font.spacing = spacing }
        if let side = try values.int("maxPageSize", in: 16...4096) { font.maxPageSize = side }
        if let hinting = try values.string("hinting", oneOf: TrueTypeFontLoaderSettings.Hinting.allCases.map(\.rawValue)) {
            font.hinting = TrueTypeFontLoaderSettings.Hinting(rawValue: hinting)!
        }
        if let antialias = try values.bool("antialias") { font.isAntialiased = antialias }
        if let face = try values.int("face", in: 0...0xFFFF) { font.faceIndex = face }
        if let alpha = try values.string("alpha", oneOf: ["straight", "premultiplied"]) { font.alphaMode = AlphaMode(rawValue: alpha)! }
        options[TrueTypeFontLoaderSettings.self] = font
    }
}

extension TrueTypeFontLoader: ConfigurablePlugin {
    /// ``TrueTypeSettingsReader``.
    public var settingsReader: any PluginSettingsReader { TrueTypeSettingsReader() }
}

/// The former name of ``TrueTypeSettingsReader``, from when only manifests read settings.
@available(*, deprecated, renamed: "TrueTypeSettingsReader")
public typealias TrueTypeOptionReader = TrueTypeSettingsReader
