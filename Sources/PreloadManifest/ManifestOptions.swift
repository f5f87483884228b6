import Preload

/// What reads a manifest's per-plugin settings: the settings readers of the plugins registered,
/// and what the registry's plugins say decodes on this machine (a Phaser pack's `audio` entry
/// picks among its encodings with it).
struct ManifestPlugins {
    /// The readers of entries' `"options"`, by key.
    let settings: PluginSettingsReaders
    /// The registry the readers came from; `nil` when given readers alone (every encoding is
    /// then taken to decode).
    let registry: PluginRegistry?

    /// The plugins of `registry`.
    init(registry: PluginRegistry) {
        self.settings = PluginSettingsReaders(registry: registry)
        self.registry = registry
    }

    /// `readers` alone, without a registry.
    init(readers: [any PluginSettingsReader]) {
        self.settings = PluginSettingsReaders(readers)
        self.registry = nil
    }

    /// Whether the plugin `plugin` decodes files named with `fileExtension` here: what it says
    /// as an ``InstalledFormatsPlugin``; `true` for any other plugin, and without a registry.
    func decodes(_ plugin: String, fileExtension: String) -> Bool {
        guard let registry else { return true }
        return (registry.plugin(identifier: plugin) as? any InstalledFormatsPlugin)?.decodes(fileExtension: fileExtension) ?? true
    }
}

/// The former reader of one plugin's manifest options, now `PluginSettingsReader` in the core:
/// a plugin gives its reader as a `ConfigurablePlugin`, and the command line reads the same
/// settings. A reader written against this name still works, given to
/// ``AssetManifest/init(contentsOf:optionReaders:webRoot:)``.
@available(*, deprecated, renamed: "PluginSettingsReader")
public typealias ManifestOptionReader = PluginSettingsReader

/// The former name of `PluginSettingsValues`, the members of one plugin's settings object.
@available(*, deprecated, renamed: "PluginSettingsValues")
public typealias ManifestOptionValues = PluginSettingsValues

/// The former list of the bundled plugins' option readers. PreloadManifest no longer knows the
/// plugins: each plugin gives its reader (a `ConfigurablePlugin`), and
/// ``AssetManifest/init(contentsOf:registry:webRoot:)`` reads with the readers of the plugins
/// registered.
@available(*, deprecated, message: "give the registry whose plugins read their settings: AssetManifest(contentsOf:registry:webRoot:)")
public enum ManifestOptionReaders {
    /// No readers: the bundled plugins' readers come with the plugins (`PNGLoader`,
    /// `AtlasLoader`, `AudioLoader`, `TileMapLoader`, `TrueTypeFontLoader` are
    /// `ConfigurablePlugin`s), through ``AssetManifest/init(contentsOf:registry:webRoot:)``.
    public static var bundled: [any PluginSettingsReader] { [] }
}
