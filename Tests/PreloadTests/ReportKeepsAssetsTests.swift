import Foundation
import Preload
import PreloadTestSupport
import Testing

/// `PreloadOptions.reportKeepsAssets` off keeps what the batch's assets share: a dependent and
/// its dependencies stay whole (a dependent reads them, and they may hold the same memory),
/// everything else is let go.
@Suite struct ReportKeepsAssetsTests {
    @Test func aDependentAndItsDependenciesAreKeptTheRestLetGo() async throws {
        // The bundle's folder is walked last, long after the files it lists (in the first
        // folder) have loaded: they are still there for it, folded into it as when kept.
        let directory = try TemporaryDirectory()
        for name in ["a", "b", "c"] { try directory.write("a/\(name).txt", text: "text \(name)") }
        for index in 0..<300 { try directory.write("m/\(index).txt", text: "more \(index)") }
        try directory.write("z/both.bundle", text: "../a/a.txt\n../a/b.txt")
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
        let shown = kinds(released)
        #expect(shown["a.txt"] == "kept" && shown["b.txt"] == "kept" && shown["both.bundle"] == "kept" && shown["c.txt"] == "released")
        #expect(shown["0.txt"] == "released" && shown.values.filter { $0 == "kept" }.count == 3)
        let bundle = try #require(released.allResults.first { $0.request.path.hasSuffix("both.bundle") }?.outcome.asset as? TextAsset)
        #expect(bundle.text == "text a+text b")
        #expect(released.results.count == kept.results.count && released.allResults.count == kept.allResults.count)
        #expect(released.decodedBytes == kept.decodedBytes && released.results.outcomeCounts == kept.results.outcomeCounts)
    }
}
