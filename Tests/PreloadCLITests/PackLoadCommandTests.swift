import Foundation
import Preload
import PreloadRemote
import PreloadTestSupport
import Testing

/// `preload --pack` and packs met while walking: the round trip create → load → extract, the JSON
/// shape of a pack, and damaged or oversized entries.
@Suite struct PackLoadCommandTests {
    static let sampleAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets").path
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    static func sha256(_ data: Data) -> String {
        (try? SHA256.hash(data: data))?.hexString ?? "(libcrypto missing)"
    }

    /// Every regular file below `root`, relative, with its bytes.
    static func tree(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            if !isDirectory.boolValue, !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
            }
        }
        return files
    }

    /// A game-like corpus: noisy and flat PNGs, text, zeros, incompressible bytes, nested folders.
    func generatedCorpus() throws -> String {
        var random = SystemRandomNumberGenerator()
        for index in 0..<24 {
            let size = 8 + index * 3
            try directory.write(
                "corpus/sprites/s\(index).png",
                PNGFixture.rgba(width: size, height: size, pixels: PNGFixture.noise(width: size, height: size, seed: UInt64(index))))
            try directory.write(
                "corpus/levels/world\(index % 3)/level\(index).json",
                text: "{\"level\": \(index), \"tiles\": [\(Array(repeating: "\(index % 5)", count: 400).joined(separator: ","))]}")
            try directory.write("corpus/audio/clip\(index).raw", (0..<(4000 + index * 500)).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        try directory.write("corpus/zeros.bin", [UInt8](repeating: 0, count: 300_000))
        try directory.write("corpus/empty.txt", [])
        return directory.file("corpus")
    }

    @Test(arguments: ["sample-assets", "generated"])
    func createLoadExtractRoundTripsByteExact(_ source: String) async throws {
        let root = source == "sample-assets" ? Self.sampleAssets : try generatedCorpus()
        let originals = try Self.tree(root)
        #expect(try await preload(["pack", "create", root, "--output", "round.pak", "--jobs", "2"]).status == 0)

        let load = try await preload(["--pack", "round.pak", "--json", "--checksum"])
        #expect(load.status == 0, "\(load.stderr)")
        let assets = try #require(load.json?["assets"] as? [[String: Any]])
        let pack = try #require(assets.first { $0["path"] as? String == "round.pak" })
        #expect(pack["kind"] as? String == "pack" && pack["plugin"] as? String == "pack")
        #expect(pack["format"] as? String == "pak" && pack["status"] as? String == "loaded")
        let entries = try #require(pack["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["name"] as? String }) == Set(originals.keys))
        for entry in entries {
            let name = try #require(entry["name"] as? String)
            let original = try #require(originals[name])
            #expect(entry["status"] as? String == "loaded", "\(name): \(entry["error"] ?? "")")
            #expect(entry["bytes"] as? Int == original.count, "\(name)")
            #expect(entry["sha256"] as? String == Self.sha256(original), "\(name): the raw bytes as loaded")
            #expect((entry["compressedBytes"] as? Int ?? .max) <= original.count, "\(name)")
        }
        let pngs = originals.keys.filter { $0.hasSuffix(".png") }
        let textures = assets.filter { $0["kind"] as? String == "texture" }.compactMap { $0["path"] as? String }
        #expect(Set(pngs.map { "round.pak#" + $0 }).isSubset(of: Set(textures)), "textures from the pack are assets of their own")

        #expect(try await preload(["pack", "extract", "round.pak", "--output", "out"]).status == 0)
        #expect(try Self.tree(directory.file("out")) == originals)
    }

    @Test func packsMetWhileWalkingLoadAndTheirAtlasesResolveInside() async throws {
        let run = try await preload([Self.sampleAssets + "/packs", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        let byPath = Dictionary(assets.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let pak = Self.sampleAssets + "/packs/level1.pak"
        #expect(byPath[pak]?["kind"] as? String == "pack")
        #expect(byPath[Self.sampleAssets + "/packs/extras.zip"]?["format"] as? String == "zip")
        let hud = try #require(byPath[pak + "#hud/hud.json"])
        #expect(hud["kind"] as? String == "atlas" && (hud["frames"] as? [Any])?.count == 3)
        #expect((hud["pages"] as? [[String: Any]])?.first?["path"] as? String == pak + "#hud/hud.png")
        let summary = try #require(run.json?["summary"] as? [String: Any])
        #expect((summary["packEntries"] as? [String: Int])?["loaded"] == 7)
    }

    @Test func aDamagedEntryFailsAloneAndTheExitStatusSaysSo() async throws {
        try directory.write("game/levels/one.txt", text: String(repeating: "level one. ", count: 500))
        try directory.write("game/art/noise.png", PNGFixture.rgba(width: 20, height: 20, pixels: PNGFixture.noise(width: 20, height: 20)))
        #expect(try await preload(["pack", "create", "game", "--output", "game.pak"]).status == 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file("game.pak"))))
        bytes[100] ^= 0xFF  // inside the first entry's data (art/noise.png, stored)
        try directory.write("bad.pak", bytes)
        let run = try await preload(["--pack", "bad.pak", "--json"])
        #expect(run.status == 1)
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        let entries = try #require(assets.first?["entries"] as? [[String: Any]])
        let bad = try #require(entries.first { $0["name"] as? String == "art/noise.png" })
        #expect(bad["status"] as? String == "failed")
        #expect((bad["error"] as? String)?.hasPrefix("bad.pak#art/noise.png: entry 'art/noise.png': CRC-32 mismatch") == true, "\(bad)")
        #expect(entries.first { $0["name"] as? String == "levels/one.txt" }?["status"] as? String == "loaded")
        #expect(run.stderr.contains("Error: bad.pak#art/noise.png:"))
    }

    /// A pack is one asset, loaded even when an entry is not: the headline counts the entries
    /// too, so that it agrees with the FAIL line and the exit status.
    @Test func theHeadlineCountsPackEntriesAndAgreesWithTheExitStatus() async throws {
        var zip = ZipFixture.stored([("a.txt", Array("hello".utf8)), ("b.txt", Array("world".utf8))])
        let data = try #require(zip.indices.first { zip[$0...].starts(with: Array("world".utf8)) })
        zip[data] ^= 0xFF  // b.txt's CRC-32 no longer matches
        try directory.write("bad.zip", zip)
        let run = try await preload(["bad.zip"])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.stdout)")
        let headline = try #require(lines.first)
        // What failed leads: the pack loaded, one of its entries did not.
        let pattern = /FAILED 1 pack entry; loaded 1 of 1 asset \(1 of 2 pack entries\) in [0-9.]+ m?s: 5 B decoded/
        #expect(headline.wholeMatch(of: pattern) != nil, "\(headline)")
        #expect(lines.dropFirst().first == "  failed:    1 pack entry")
        #expect(lines.last?.hasPrefix("  FAIL  bad.zip#b.txt: entry 'b.txt': CRC-32 mismatch") == true, "\(run.stdout)")

        try directory.write("good.zip", ZipFixture.stored([("a.txt", Array("hello".utf8)), ("b.txt", Array("world".utf8))]))
        let good = try await preload(["good.zip"])
        #expect(good.status == 0 && good.stdout.hasPrefix("Loaded 1 of 1 asset (2 of 2 pack entries) in "), "\(good.stdout)")
        #expect(good.stdout.split(separator: "\n").count == 1)
    }

    @Test func theEntryLimitStopsABomb() async throws {
        try directory.write("bomb/zeros.bin", [UInt8](repeating: 0, count: 3 << 20))
        #expect(try await preload(["pack", "create", "bomb", "--output", "bomb.pak"]).status == 0)
        let run = try await preload(["--pack", "bomb.pak", "--max-entry-mib", "1"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL  bomb.pak#zeros.bin: entry 'zeros.bin' inflates past the limit of 1048576 bytes"), "\(run.stdout)")
        #expect(try await preload(["--pack", "bomb.pak"]).status == 0, "the default limit lets it through")
    }
}
