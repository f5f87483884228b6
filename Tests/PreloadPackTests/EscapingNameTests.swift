import Preload
import PreloadAtlas
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// An entry whose name would reach outside its archive fails by name wherever it is read, and
/// the archive's other entries still load.
@Suite struct EscapingNameTests {
    static let escaping: [(name: String, reason: String)] = [
        ("../escape.txt", "it has a '..' component"),
        ("a/../../up.txt", "it has a '..' component"),
        ("/etc/abs.txt", "it is an absolute path"),
        ("C:/drive.txt", "it starts with the drive C:"),
        ("c:drive.txt", "it starts with the drive c:"),
        ("..\\back.txt", "it contains a backslash, a path separator on Windows"),
        ("dir\\..\\..\\x.txt", "it contains a backslash, a path separator on Windows"),
    ]
    static let inside = ["ok/fine.txt", "./dot.txt", "a//b.txt", "C_colon:later.txt"]

    let directory: TemporaryDirectory
    let zip: String

    init() throws {
        directory = try TemporaryDirectory()
        let names = Self.escaping.map(\.name) + Self.inside
        zip = try directory.write("evil.zip", ZipFixture.stored(names.map { ($0, Array("data of \($0)".utf8)) }))
    }

    @Test func theIndexGivesEachEscapingEntryItsReason() throws {
        let index = try PackIndexReader.index(at: zip)
        for (name, reason) in Self.escaping {
            #expect(index.entry(named: name)?.problem == .escapingName(entry: name, reason: reason), "\(name)")
            #expect(throws: PackError.escapingName(entry: name, reason: reason)) { try EntryReader.read(index.entry(named: name)!, from: zip) }
        }
        for name in Self.inside {
            #expect(try EntryReader.read(index.entry(named: name)!, from: zip).array == Array("data of \(name)".utf8), "\(name)")
        }
    }

    @Test func loadingFailsThoseEntriesByNameAndLoadsTheRest() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let report = try await coordinator.start([AssetRequest(path: zip)]).finished()
        let pack = try #require(report.results[0].outcome.asset as? PackAsset)
        for (name, reason) in Self.escaping {
            let entry = try #require(pack.entries.first { $0.name == name })
            let error = try #require(entry.outcome.error, "\(name) must fail")
            #expect(error.category == .corrupt && error.reason == "entry '\(name)' would reach outside the archive: \(reason)")
        }
        for name in Self.inside {
            #expect(pack.entries.first { $0.name == name }?.outcome.isLoaded == true, "\(name)")
        }
        #expect(coordinator.assets.names.allSatisfy { !$0.contains("..") && !$0.contains("\\") })
    }

    @Test func extractionRefusesNamingEachAndWritesNothing() throws {
        let index = try PackIndexReader.index(at: zip)
        let output = directory.file("out")
        do {
            _ = try ExtractionPlan(index: index, into: output, overwrite: false)
            Issue.record("extraction planned")
        } catch let refusal as ExtractionPlan.Refusal {
            #expect(refusal.problems == Self.escaping.map { "'\($0.name)' would land outside \(output): \($0.reason)" })
        }
    }

    /// An atlas inside an archive finds pages relative to itself inside the archive, and a page
    /// named outside the archive fails the atlas by name, never reaching the disk beside it.
    @Test func anAtlasInsideAnArchiveStaysInside() async throws {
        let page = PNGFixture.rgba(width: 8, height: 8, pixels: PNGFixture.noise(width: 8, height: 8, seed: 3))
        try directory.write("page.png", page)  // beside the archive: must never be read through it
        func atlas(image: String) -> [UInt8] {
            Array(#"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}}}, "meta": {"image": "\#(image)"}}"#.utf8)
        }
        let archive = try directory.write(
            "game.zip",
            ZipFixture.stored([
                ("ui/inside.json", atlas(image: "../textures/page.png")), ("textures/page.png", page),
                ("ui/outside.json", atlas(image: "../../page.png")), ("ui/absolute.json", atlas(image: directory.file("page.png"))),
            ]))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let requests = ["inside", "outside", "absolute"].map { AssetRequest(path: archive + "#ui/\($0).json") }
        let report = try await coordinator.start(requests).finished()
        let inside = try #require(report.results.first { $0.request == requests[0] }?.outcome.asset as? TextureAtlas)
        #expect(inside.pages.map(\.path) == [archive + "#textures/page.png"])
        for request in requests.dropFirst() {
            let error = try #require(report.results.first { $0.request == request }?.outcome.error)
            #expect(error.reason.contains("lies outside the archive \(archive)"), "\(error)")
        }
    }
}

/// A pack's entries are stored under the name the caller gave the pack, never under a path the
/// caller did not write.
@Suite struct PackEntryNameTests {
    @Test func entriesAreNamedAfterThePacksRequest() async throws {
        let directory = try TemporaryDirectory()
        let pack = try directory.write("packs/level1.zip", ZipFixture.stored([("hud/a.txt", Array("a".utf8)), ("b.txt", Array("b".utf8))]))
        #expect(pack.hasPrefix("/"), "requested by an absolute path")
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), PackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: pack, name: "level1")])
        #expect(report.everythingLoaded && report.results.count == 1 && report.dependencies.count == 2)
        #expect(coordinator.assets.names == ["level1"])
        #expect(coordinator.assets.dependencyNames == ["level1#b.txt", "level1#hud/a.txt"])
        let entry = try #require(coordinator.assets.asset(named: "level1#hud/a.txt") as? DataAsset)
        #expect(Array(entry.bytes) == Array("a".utf8))
        #expect(coordinator.assets.entry(named: "level1#b.txt")?.path == pack + "#b.txt", "the path is still the file's")
    }
}
