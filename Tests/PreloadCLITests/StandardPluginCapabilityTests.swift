import Preload
import Testing

@testable import PreloadCLI

/// The standard plugins' capabilities, as the registry reads them without a run-time
/// conformance lookup (`LoaderPlugin.asContainer` and the others), agree with their
/// conformances; and the command lets go of its assets only when nothing after the batch reads
/// them.
@Suite struct StandardPluginCapabilityTests {
    @Test func everyStandardPluginAnswersWhatItConformsTo() {
        for plugin in StandardPlugins.plugins() {
            #expect((plugin.asContainer != nil) == (plugin is any ContainerPlugin), "\(plugin.identifier)")
            #expect((plugin.asPlanning != nil) == (plugin is any PlanningPlugin), "\(plugin.identifier)")
            #expect((plugin.asExpanding != nil) == (plugin is any ExpandingPlugin), "\(plugin.identifier)")
            #expect((plugin.asExpanding?.asBulkExpanding != nil) == (plugin is any BulkExpandingPlugin), "\(plugin.identifier)")
        }
        #expect(StandardPlugins.plugins().filter { $0.asContainer != nil }.map(\.identifier).contains("pack"))
    }

    @Test func theCommandKeepsAssetsOnlyForWhatReadsThem() {
        #expect(!LoadCommand.readsAssets(json: false, verbose: false, checksum: false, contactSheet: nil, watch: false))
        #expect(LoadCommand.readsAssets(json: true, verbose: false, checksum: false, contactSheet: nil, watch: false))
        #expect(LoadCommand.readsAssets(json: false, verbose: true, checksum: false, contactSheet: nil, watch: false))
        #expect(LoadCommand.readsAssets(json: false, verbose: false, checksum: true, contactSheet: nil, watch: false))
        #expect(LoadCommand.readsAssets(json: false, verbose: false, checksum: false, contactSheet: "sheet.png", watch: false))
        #expect(LoadCommand.readsAssets(json: false, verbose: false, checksum: false, contactSheet: nil, watch: true))
    }
}
