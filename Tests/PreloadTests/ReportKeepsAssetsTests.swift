import Foundation
import Preload
import PreloadTestSupport
import Testing

/// `PreloadOptions.reportKeepsAssets` off keeps what the batch's assets share: a dependent and
/// its dependencies stay whole (a dependent reads them, and they may hold the same memory),
/// everything else is let go.
@Suite struct ReportKeepsAssetsTests {
    @Test func aDependentAndItsDependenciesAreKeptTheRestLetGo() async throws {
        let directory = try TemporaryDirectory()
        for name in ["a", "b", "c"] { try directory.write("\(name).txt", text: "text \(name)") }
        try directory.write("both.bundle", text: "a.txt\nb.txt")
        let registry = try PluginRegistry([TextLoader(), BundleLoader(order: Recorder())])
        func report(keeping: Bool) async throws -> PreloadReport {
            try await PreloadCoordinator(registry: registry).preload(
                [.folder(directory.path)], options: PreloadOptions(storesAssets: false, reportKeepsAssets: keeping))
        }
        let kept = try await report(keeping: true)
        let released = try await report(keeping: false)
        func kinds(_ report: PreloadReport) -> [String: String] {
            Dictionary(
                report.allResults.map { (($0.request.path as NSString).lastPathComponent, $0.outcome.asset is ReleasedAsset ? "released" : "kept") },
                uniquingKeysWith: { first, later in first == later ? first : "both" })
        }
        #expect(kinds(kept).values.allSatisfy { $0 == "kept" })
        #expect(kinds(released) == ["a.txt": "kept", "b.txt": "kept", "both.bundle": "kept", "c.txt": "released"])
        let bundle = try #require(released.allResults.first { $0.request.path.hasSuffix("both.bundle") }?.outcome.asset as? TextAsset)
        #expect(bundle.text == "text a+text b")
        #expect(released.decodedBytes == kept.decodedBytes && released.results.outcomeCounts == kept.results.outcomeCounts)
    }
}
