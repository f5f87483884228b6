import Preload  // public API only: what a third party's plugin sees
import PreloadTestSupport
import Testing

/// What a plugin can do, answered by its own witnesses (`LoaderPlugin.asContainer`,
/// `asPlanning`, `asExpanding`, `ExpandingPlugin.asBulkExpanding`), chosen where its
/// conformances are compiled: a third party's plugin answers without implementing anything, and
/// the answers agree with its conformances.
@Suite struct PluginCapabilityTests {
    @Test func aThirdPartyPluginAnswersWhatItConformsTo() {
        let plugins: [any LoaderPlugin] = [TextLoader(), LinesBundleLoader(), BundleLoader(order: Recorder())]
        for plugin in plugins {
            #expect((plugin.asContainer != nil) == (plugin is any ContainerPlugin), "\(plugin.identifier)")
            #expect((plugin.asPlanning != nil) == (plugin is any PlanningPlugin), "\(plugin.identifier)")
            #expect((plugin.asExpanding != nil) == (plugin is any ExpandingPlugin), "\(plugin.identifier)")
            #expect((plugin.asExpanding?.asBulkExpanding != nil) == (plugin is any BulkExpandingPlugin), "\(plugin.identifier)")
        }
        #expect(LinesBundleLoader().asContainer?.identifier == "lines" && LinesBundleLoader().asExpanding?.asBulkExpanding != nil)
        #expect(TextLoader().asContainer == nil && TextLoader().asExpanding == nil)
    }
}
