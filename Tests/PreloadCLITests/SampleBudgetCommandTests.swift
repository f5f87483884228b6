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

    /// `--json` gives the peak under `--memory-budget`. 40 copies of the sample's forest
    /// background (74 KB of file, 3,686,400 bytes of pixels each) under 10 MiB on one job:
    /// loads cut by file size alone held six at once (22,118,400 bytes).
    @Test func theBudgetHoldsForSmallFilesOfLargeImagesAndJSONSaysThePeak() async throws {
        let directory = try TemporaryDirectory()
        let forest = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.root + "/sample-assets/backgrounds/forest.png")))
        for index in 0..<40 { try directory.write(String(format: "flat/forest-%02d.png", index), forest) }
        let run = try await CommandRunner.preload(["--jobs", "1", "--memory-budget", "10", "flat", "--json"], in: directory.path)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(run.json?["summary"] as? [String: Any])
        #expect(summary["loaded"] as? Int == 40)
        let peak = try #require(summary["peakHeldBytes"] as? Int, "\(summary)")
        #expect(peak >= 3_686_400 && peak <= 10 << 20, "peak \(peak) over the 10 MiB budget")
        let unbudgeted = try await CommandRunner.preload(["--jobs", "1", "flat", "--json"], in: directory.path)
        #expect((unbudgeted.json?["summary"] as? [String: Any])?["peakHeldBytes"] == nil, "no budget, no peak")
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
