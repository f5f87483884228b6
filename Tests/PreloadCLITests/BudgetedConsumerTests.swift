import Foundation
import Preload
import PreloadPNG
import PreloadPack
@testable import PreloadCLI
import PreloadTestSupport
import Testing

/// `--memory-budget`'s consumer frees what it takes over by asking the asset, not its type: every
/// asset that describes itself (`DescribedAsset`) leaves memory with its description kept, a data
/// file as a texture does; a container (`ContainerAsset`, a zip) stays whole, since its listing is
/// what the command shows of its entries.
@Suite struct BudgetedConsumerTests {
    @Test func everyDescribedAssetIsFreedAndAContainerIsKept() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("art/hero.png", PNGFixture.rgba(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8]))
        try directory.write("art/level.json", text: #"{"width": 3}"#)
        try directory.write("art/level.zip", ZipFixture.stored([("notes.txt", Array("hello".utf8))]))
        let consumer = BudgetedConsumer(checksums: true)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), PackLoader(), DataFileLoader.json])
        let options = consumer.options(PreloadOptions(), budget: 1 << 20)
        let requests = [
            AssetRequest(path: directory.file("art/hero.png"), name: "art/hero.png"),
            AssetRequest(path: directory.file("art/level.json"), name: "art/level.json", plugin: "json"),
            AssetRequest(path: directory.file("art/level.zip"), name: "art/level.zip"),
        ]
        let report = try await coordinator.preload(requests, options: options)
        let digests = consumer.finish()
        #expect(report.everythingLoaded, "\(report.errors)")
        let byName = Dictionary(uniqueKeysWithValues: report.results.map { ($0.request.name, $0) })

        let hero = try #require(byName["art/hero.png"])
        #expect(hero.outcome.asset is HandedOverAsset && hero.shownDescription(checksums: nil)?.summary == "2x1 rgba8")
        let level = try #require(byName["art/level.json"])
        #expect(level.outcome.asset is HandedOverAsset, "a data file leaves memory too: \(type(of: level.outcome.asset))")
        #expect(level.shownBytes == 12 && level.shownDescription(checksums: nil) == AssetDescription(), "what --json shows of it is kept")
        #expect(digests[directory.file("art/level.json")]?[ChecksummedPart.whole] != nil, "its digest is taken before it is freed")
        let pack = try #require(byName["art/level.zip"])
        #expect(pack.outcome.asset is any ContainerAsset, "the container stays for its entries' lines")
    }
}
