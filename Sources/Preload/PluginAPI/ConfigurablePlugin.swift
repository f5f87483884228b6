/// A loader plugin with settings that a manifest or a command line can give by name: it hands
/// out its ``PluginSettingsReader``, whose key (the plugin's identifier, by convention) names
/// its settings in a manifest entry's `"options"` and in the command's `--set KEY.NAME=VALUE`.
/// The names follow docs/architecture.md's naming rule: the settings type is
/// `<Loader>Settings`, the reader `<Plugin>SettingsReader`, and each key is the short word a
/// manifest writes, setting the member of the same meaning in Swift's words (a Boolean reads as
/// an assertion: the key `uppercase` sets `uppercasesText`, as the atlas plugin's `trim` sets
/// `trimsTransparentBorders`).
///
/// ```swift
/// import Preload
///
/// /// `TextLoader`'s settings (`<Loader>Settings`).
/// struct TextLoaderSettings: AssetOptionKey, Hashable {
///     static let defaultValue = TextLoaderSettings()
///     /// Whether the text is made upper case: the key `uppercase`.
///     var uppercasesText = false
/// }
/// /// `"text": {"uppercase": true}`, `--set text.uppercase=true` (`<Plugin>SettingsReader`).
/// struct TextSettingsReader: PluginSettingsReader {
///     var key: String { "text" }
///     func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
///         if let uppercase = try values.bool("uppercase") { options[TextLoaderSettings.self].uppercasesText = uppercase }
///     }
/// }
/// struct TextLoader: ConfigurablePlugin {
///     let identifier = "text"
///     let assetKind = AssetKind(rawValue: "text")
///     let fileExtensions: Set<String> = ["txt"]
///     var settingsReader: any PluginSettingsReader { TextSettingsReader() }
///     func load(_ context: LoadContext) throws -> any Asset {
///         let text = String(decoding: try context.readContents().array, as: UTF8.self)
///         let uppercase = context.request.options[TextLoaderSettings.self].uppercasesText
///         return DataAsset(bytes: Array((uppercase ? text.uppercased() : text).utf8))
///     }
/// }
/// ```
public protocol ConfigurablePlugin: LoaderPlugin {
    /// The reader of this plugin's settings.
    var settingsReader: any PluginSettingsReader { get }
}
