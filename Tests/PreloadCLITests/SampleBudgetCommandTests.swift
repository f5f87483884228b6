import Foundation
import PreloadTestSupport
import Testing

/// `preload sample-assets --memory-budget 256`, which the README advertises, and the bundled
/// atlas whose page `ui.png` is also a file of the walked folder.
@Suite struct SampleBudgetCommandTests {
    /// The repository's root, where `sample-assets` is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// It failed the atlas `ui.json` every run ("dependency ui.png is a texture, not Texture"):
    /// the page was handed over and released before the atlas read it.
    @Test func theSampleLoadsUnderAMemoryBudgetEveryRun() async throws {
        var failed: [String] = []
        for _ in 0..<8 {
            let run = try await CommandRunner.preload(["sample-assets", "--memory-budget", "256"], in: Self.root)
            if run.status != 0 || run.stdout.contains("FAIL") { failed.append(run.stdout + run.stderr) }
        }
        #expect(failed.isEmpty, "\(failed.count) of 8 runs failed: \(failed.first ?? "")")
    }

    /// In `--json` the page is listed once, as the atlas's page, and counted once.
    @Test func aWalkedAtlasPageIsListedOnceInJSON() async throws {
        let run = try await CommandRunner.preload(["sample-assets/atlases", "--json"], in: Self.root)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        let assets = try #require(json["assets"] as? [[String: Any]])
        #expect(assets.compactMap { $0["path"] as? String } == ["sample-assets/atlases/creatures.atlas", "sample-assets/atlases/ui/ui.json"])
        let pages = assets.flatMap { ($0["pages"] as? [[String: Any]]) ?? [] }.compactMap { $0["path"] as? String }
        #expect(pages.filter { $0 == "sample-assets/atlases/ui/ui.png" }.count == 1, "\(pages)")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["loaded"] as? Int == 2)
        #expect(summary["decodedBytes"] as? Int == 14280 + 8192, "each page's pixels once")
    }
}
