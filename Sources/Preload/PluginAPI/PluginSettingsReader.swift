/// Reads one plugin's settings into a request's ``AssetOptions``: from the object under
/// ``key`` in a manifest entry's `"options"` (`"options": {"png": {"alpha": "premultiplied"}}`)
/// and from the command line's `--set png.alpha=premultiplied`. A plugin gives its reader
/// through ``ConfigurablePlugin``; the manifest and the command find it there, knowing nothing
/// of the plugin.
public protocol PluginSettingsReader: Sendable {
    /// The key the settings go under: the plugin's identifier, by convention.
    var key: String { get }
    /// Sets `options` from `values` (settings absent keep their values). Every member given
    /// must be read, or the settings fail with "unknown option"; a member of the wrong type
    /// throws a ``PluginSettingsProblem`` (the ``PluginSettingsValues`` readers do).
    func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws
}
