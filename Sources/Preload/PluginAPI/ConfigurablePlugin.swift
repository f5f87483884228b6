/// A loader plugin with settings that a manifest or a command line can give by name: it hands
/// out its ``PluginSettingsReader``, whose key (the plugin's identifier, by convention) names
/// its settings in a manifest entry's `"options"` and in the command's `--set KEY.NAME=VALUE`.
///
/// ```swift
/// import Preload
///
/// struct TextSettings: AssetOptionKey, Hashable {
///     static let defaultValue = TextSettings()
///     var uppercases = false
/// }
/// struct TextSettingsReader: PluginSettingsReader {
///     var key: String { "text" }
///     func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
///         if let upper = try values.bool("uppercase") { options[TextSettings.self].uppercases = upper }
///     }
/// }
/// struct TextLoader: ConfigurablePlugin {
///     let identifier = "text"
///     let assetKind = AssetKind(rawValue: "text")
///     let fileExtensions: Set<String> = ["txt"]
///     var settingsReader: any PluginSettingsReader { TextSettingsReader() }
///     func load(_ context: LoadContext) throws -> any Asset {
///         let text = String(decoding: try context.readContents().array, as: UTF8.self)
///         let upper = context.request.options[TextSettings.self].uppercases
///         return DataAsset(bytes: Array((upper ? text.uppercased() : text).utf8))
///     }
/// }
/// ```
public protocol ConfigurablePlugin: LoaderPlugin {
    /// The reader of this plugin's settings.
    var settingsReader: any PluginSettingsReader { get }
}
