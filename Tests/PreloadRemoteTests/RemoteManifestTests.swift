import Foundation
import Preload
import PreloadManifest
import PreloadPNG
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// Manifests that name URLs: a Phaser pack's http(s) entries load (they were notices), and
/// Preload's dialect takes URLs, a root that is one, and each file's promised size and SHA-256.
@Suite struct RemoteManifestTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    var hero: [UInt8] { PNGFixture.rgba(width: 2, height: 2, pixels: Array(0..<16)) }

    @Test func aPhaserPacksRemoteImagesLoadThroughTheFetcher() async throws {
        try fixture.serve("img/hero.png", hero)
        let pack = try fixture.served.write(
            "pack.json",
            text: """
                {"level1": {"baseURL": "\(fixture.url("plain/"))", "files": [
                    {"type": "image", "key": "hero", "url": "img/hero.png"},
                    {"type": "image", "key": "cdn", "url": "//cdn.example.com/x.png"}]}}
                """)
        let manifest = try AssetManifest(contentsOf: pack, registry: try PluginRegistry([PNGLoader()]))
        let requests = try manifest.requests(for: ["level1"])
        #expect(requests.map(\.path) == [fixture.url("plain/img/hero.png")])
        #expect(manifest.notices.map(\.kind) == [.notOnDisk])  // a protocol-relative URL: the page's scheme is not known
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(fetcher: try fixture.fetcher()))
        let groups = AssetGroups(manifest: manifest, coordinator: coordinator)
        try await groups.preload(["level1"])
        #expect(coordinator.assets.texture(named: "hero")?.width == 2)
    }

    @Test func preloadManifestsTakeURLsARemoteRootAndPromises() async throws {
        let promise = try fixture.serve("levels/hero.png", hero)
        let lie = ExpectedContents(size: promise.size, sha256: String(repeating: "0", count: 64))
        let manifest = try fixture.served.write(
            "levels.json",
            text: """
                {"root": "\(fixture.url("plain/levels"))",
                 "groups": {"one": {"assets": [
                    {"path": "hero.png", "name": "hero", "size": \(promise.size!), "sha256": "\(promise.sha256!)"},
                    {"path": "\(fixture.url("plain/levels/hero.png"))", "name": "liar", "sha256": "\(lie.sha256!)"}]}}}
                """)
        let read = try AssetManifest(contentsOf: manifest, registry: try PluginRegistry([PNGLoader()]))
        let requests = try read.requests(for: ["one"])
        #expect(requests.map(\.path) == [fixture.url("plain/levels/hero.png"), fixture.url("plain/levels/hero.png")])
        #expect(requests[0].options[ExpectedContents.self] == promise)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(fetcher: try fixture.fetcher()))
        let report = try await coordinator.preload(requests)
        #expect(report.loaded.map(\.request.name) == ["hero"])
        let error = try #require(report.failed.first?.outcome.error)
        #expect(error.category == .corrupt && error.description.contains("SHA-256"))
        #expect(throws: ManifestError.self) {
            try AssetManifest(
                contentsOf: try fixture.served.write("bad.json", text: #"{"groups": {"g": {"assets": [{"path": "a.png", "sha256": "xyz"}]}}}"#),
                registry: try PluginRegistry([PNGLoader()]))
        }
    }
}
