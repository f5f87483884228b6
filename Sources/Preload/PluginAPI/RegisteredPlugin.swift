/// A plugin as its ``PluginRegistry`` holds it: one reference the engine hands from planning to
/// loading (copying an `any LoaderPlugin` runs its type's value witnesses; copying this is a
/// retain), with what the engine asks of every file's plugin read once, at registration.
final class RegisteredPlugin: Sendable {
    /// The plugin.
    let loader: any LoaderPlugin
    /// ``LoaderPlugin/identifier``.
    let identifier: String
    /// Whether it is a ``ContainerPlugin`` (whose files are read where they are, never ahead).
    let isContainer: Bool
    /// ``LoaderPlugin/loadsAsynchronously``.
    let loadsAsynchronously: Bool
    /// Whether the plugin is a ``PlanningPlugin``: asked once here, so that planning casts only
    /// such plugins' loaders (callgrind: the cast was 1,341 instructions of a 16x16 PNG's
    /// planning; keeping the cast's result here instead made every request copy it).
    let plans: Bool
    /// Whether the plugin is an ``ExpandingPlugin``: asked once here, so that looking for the
    /// expander of every request casts only such plugins (the cast was about 2,800 instructions
    /// per request of every batch once a baked pack's plugin was registered).
    let expands: Bool
    /// The plugin as a ``BulkDependingPlugin``, when it is one: asked once here, so that
    /// declaring a file's dependencies casts no other plugin.
    let bulkDepending: (any BulkDependingPlugin)?
    /// Whether ``bulkDepending`` is set: asked first, so that declaring a file's dependencies
    /// copies that optional existential out of this object only for such a plugin (the copy and
    /// its destruction were ~140 instructions a file; callgrind, issue 50).
    let dependsInBulk: Bool
    /// How many first bytes the claim rule reads of a file this plugin is nominated for (by the
    /// request or the extension), when planning does not read it whole: the registry's longest
    /// header when the plugin sniffs content among others that do (its content is checked
    /// against its extension), else none. Found once here: asking the plugin per file was a
    /// witness call on every request.
    let claimHeaderLength: Int

    /// Its index in its registry (0 for one made outside a registry).
    let index: Int

    /// `loader` as a registry of `sniffers` plugins that sniff content, the longest header
    /// `longestHeader` bytes, holds it, at `index` among its plugins.
    init(_ loader: any LoaderPlugin, index: Int = 0, sniffers: Int = 0, longestHeader: Int = 0) {
        self.loader = loader
        self.index = index
        identifier = loader.identifier
        // Answered by the plugin's own witnesses (``LoaderPlugin/asContainer``): no run-time lookup.
        isContainer = loader.asContainer != nil
        loadsAsynchronously = loader.loadsAsynchronously
        plans = loader.asPlanning != nil
        expands = loader.asExpanding != nil
        bulkDepending = loader.asBulkDepending
        dependsInBulk = bulkDepending != nil
        claimHeaderLength = loader.headerLength > 0 && sniffers > 1 ? longestHeader : 0
    }
}
