import Foundation
import PreloadTestSupport
import Testing

/// `preload bake` and `preload bake check` on real folders: the loose and baked runs agree
/// asset for asset, and check names what changed.
@Suite struct BakeCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: PackLoadCommandTests.sampleAssets, toPath: directory.file("assets"))
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    /// `--json --checksum` assets keyed by name, without what differs by nature (the path, the
    /// time, the plugin, a pack's listing).
    func assets(_ arguments: [String]) async throws -> [String: [String: String]] {
        let run = try await preload(arguments + ["--json", "--checksum"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        var assets: [String: [String: String]] = [:]
        for asset in try #require(document["assets"] as? [[String: Any]]) {
            let name = (asset["name"] ?? asset["path"]) as! String
            var fields: [String: String] = [:]
            for key in [
                "kind", "width", "height", "pixelFormat", "sha256", "status", "bytes", "frameCount", "sampleRate", "channels", "columns", "rows",
                "layerCount", "tilesetCount",
            ] {
                fields[key] = asset[key].map { "\($0)" }
            }
            // An atlas's, a font's or a map's pages (a map's images), each as its path and its pixels' digest.
            fields["pages"] = (asset["pages"] as? [[String: Any]])?.map { "\($0["path"] ?? "") \($0["sha256"] ?? "")" }.joined(separator: ", ")
            assets[name] = fields
        }
        return assets
    }

    @Test func theBakedPackLoadsWhatTheLooseFilesLoad() async throws {
        let bake = try await preload(["bake", "assets", "-o", "level.bake"])
        #expect(bake.status == 0, "\(bake.stderr)")
        #expect(
            bake.stdout.hasPrefix(
                "Baked 34 entries (17 textures, 1 animation, 3 atlases, 3 sounds and music, 4 data files, 2 fonts, 1 map, 3 pages made at load)"),
            "\(bake.stdout)")
        let loose = try await assets(["assets"])
        let baked = try await assets(["level.bake"])
        // Every texture, atlas, sound, music, font and map of the loose run is in the baked one, the same.
        #expect(loose.values.contains { $0["kind"] == "font" })
        #expect(loose["assets/maps/level1.tmx"]?["pages"]?.hasPrefix("assets/maps/terrain.png ") == true, "\(loose["assets/maps/level1.tmx"] ?? [:])")
        for (name, fields) in loose where ["texture", "atlas", "sound", "music", "font", "tilemap"].contains(fields["kind"]) {
            #expect(baked[name] == fields, "\(name)")
        }
        // A pack baked as its entries: each data entry's bytes hash as the pack's listing does.
        let pack = try await preload(["assets/packs/level1.pak", "--json", "--checksum"])
        let listed = try #require((try JSONSerialization.jsonObject(with: Data(pack.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
        let entries = try #require(listed.first?["entries"] as? [[String: Any]])
        let level = try #require(entries.first { $0["name"] as? String == "level.json" })
        #expect(baked["assets/packs/level1.pak#level.json"]?["sha256"] == level["sha256"] as? String)
        // 24: the page ui.png, a walked file, is the atlas ui.json's part in the pack as it was loose
        // (and the font's page pixel_0.png, its font's; the tileset image terrain.png, its map's).
        let load = try await preload(["level.bake"])
        #expect(load.status == 0 && load.stdout.hasPrefix("Loaded 25 of 25 assets in "), "\(load.stdout)")
    }

    /// A build system passes absolute paths: `--root` names the entries relative to it, the
    /// same entries as baking from that folder.
    @Test func absolutePathsAreNamedRelativeToRoot() async throws {
        let absolute = directory.file("assets/sprites")
        let refused = try await preload(["bake", absolute, "-o", "refused.bake"])
        #expect(refused.status == 1 && refused.stderr.contains("name the folder they are relative to with --root DIR"), "\(refused.stderr)")
        let rooted = try await preload(["bake", "--root", directory.file("assets"), absolute, "-o", "rooted.bake"])
        #expect(rooted.status == 0, "\(rooted.stderr)")
        let inside = try await CommandRunner.preload(["bake", "sprites", "-o", "../inside.bake"], in: directory.file("assets"))
        #expect(inside.status == 0, "\(inside.stderr)")
        let names = try await assets(["rooted.bake"]).keys.sorted()
        let insideNames = try await assets(["inside.bake"]).keys.sorted()
        #expect(names.contains("sprites/hero.png") && names == insideNames, "\(names)")
        #expect(try await preload(["bake", "check", "rooted.bake", "--root", directory.file("assets"), absolute]).status == 0)
        let outside = try await preload(["bake", "--root", directory.file("assets/atlases"), absolute, "-o", "outside.bake"])
        #expect(outside.status == 64 && outside.stderr.contains("is not inside --root"), "\(outside.stderr)")
    }

    @Test func checkNamesStaleMissingAndNewEntries() async throws {
        #expect(try await preload(["bake", "assets/sprites", "assets/tiles", "-o", "level.bake"]).status == 0)
        let current = try await preload(["bake", "check", "level.bake", "assets/sprites", "assets/tiles"])
        #expect(current.status == 0 && current.stdout == "level.bake: 5 entries, all current\n", "\(current.stdout)")

        try FileManager.default.copyItem(atPath: directory.file("assets/sprites/coin.png"), toPath: directory.file("assets/sprites/zz-new.png"))
        try directory.write("assets/tiles/grass_tile.png", PNGFixture.rgba(width: 1, height: 1, pixels: [9, 9, 9, 255]))
        try FileManager.default.removeItem(atPath: directory.file("assets/sprites/slime.png"))
        let check = try await preload(["bake", "check", "level.bake", "assets/sprites", "assets/tiles"])
        #expect(check.status == 1)
        #expect(
            check.stdout == """
                missing assets/sprites/slime.png (assets/sprites/slime.png is gone)
                new     assets/sprites/zz-new.png (not in the pack)
                stale   assets/tiles/grass_tile.png (assets/tiles/grass_tile.png changed)
                level.bake: 5 entries, 1 stale, 1 missing, 1 new

                """, "\(check.stdout)")
    }

    /// An Aseprite export bakes as its animation's repacked pages, not its sheet: `bake check`
    /// tracks the sheet as those pages' source (current, not new; stale when it changes; missing
    /// when it is gone).
    @Test func checkTracksAnAsepriteExportsSheet() async throws {
        #expect(try await preload(["export", "assets/animations", "--to", "export"]).status == 0)
        #expect(try await preload(["bake", "export", "-o", "sheet.bake"]).status == 0)
        let current = try await preload(["bake", "check", "sheet.bake", "export"])
        #expect(current.status == 0 && current.stdout == "sheet.bake: 2 entries, all current\n", "\(current.stdout)")
        let sheet = "export/assets/animations/hero-walk.aseprite.png"
        try directory.write(sheet, PNGFixture.rgba(width: 1, height: 1, pixels: [9, 9, 9, 255]))
        let stale = try await preload(["bake", "check", "sheet.bake", "export"])
        #expect(stale.status == 1)
        #expect(
            stale.stdout == "stale   export/assets/animations/hero-walk.aseprite.json#1 (\(sheet) changed)\nsheet.bake: 2 entries, 1 stale\n",
            "\(stale.stdout)")
        try FileManager.default.removeItem(atPath: directory.file(sheet))
        let missing = try await preload(["bake", "check", "sheet.bake", "export"])
        #expect(missing.status == 1 && missing.stdout.hasPrefix("missing export/assets/animations/hero-walk.aseprite.json#1 (\(sheet) is gone)"))
    }

    @Test func aSourceThatFailsWritesNoPack() async throws {
        try directory.write("bad/ok.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        try directory.write("bad/cut.png", Array(PNGFixture.rgba(width: 8, height: 8, pixels: Array(repeating: 7, count: 256)).prefix(40)))
        let bake = try await preload(["bake", "bad", "-o", "bad.bake"])
        #expect(bake.status == 1 && bake.stderr.contains("bad/cut.png"), "\(bake.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("bad.bake")))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "no temporary file left: \(names)")
    }

    @Test func warningsArePrintedAndStrictFailsTheBake() async throws {
        // A PNG that ends after its image data, without IEND: browsers open it, so it loads with a warning.
        let png = PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 9, count: 16))
        try directory.write("warned/no-iend.png", Array(png.dropLast(12)))
        let lenient = try await preload(["bake", "warned", "-o", "warned.bake"])
        #expect(lenient.status == 0 && lenient.stderr.contains("warning: warned/no-iend.png:"), "\(lenient.stderr)")
        // The baked entry reports the warning its source gave, as loading the loose file does.
        let loose = try await preload(["warned", "--json"])
        let baked = try await preload(["warned.bake", "--json"])
        func warnings(_ run: CommandRunner.Run) throws -> [String] {
            let assets = try #require(
                (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
            return (assets.first?["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        #expect(try warnings(loose) == ["png.no-iend"] && warnings(baked) == ["png.no-iend"], "\(baked.stdout)")
        #expect(try await preload(["warned.bake", "--strict"]).status == 1, "--strict fails the baked entry's warning too")
        try FileManager.default.removeItem(atPath: directory.file("warned.bake"))
        let strict = try await preload(["bake", "warned", "--strict", "-o", "warned.bake"])
        #expect(strict.status == 1 && strict.stderr.contains("warned/no-iend.png"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("warned.bake")), "--strict wrote nothing")
    }

    @Test func aDamagedEntryFailsAloneByName() async throws {
        #expect(try await preload(["bake", "assets/sprites", "-o", "level.bake"]).status == 0)
        // Flip a byte in the middle of the file: inside some entry's pixels.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("level.bake"))))
        let coin = try await assets(["level.bake"])
        #expect(coin.count == 3)
        bytes[200] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("level.bake")))
        let load = try await preload(["level.bake"])
        #expect(load.status == 1)
        #expect(load.stdout.hasPrefix("FAILED 1 asset; loaded 2 of 3 assets"), "\(load.stdout)")
        #expect(load.stdout.contains("checksum does not match"), "\(load.stdout)")
        let trusted = try await preload(["level.bake", "--trust"])
        #expect(trusted.status == 0, "--trust skips entry checksums: \(trusted.stdout)")
    }
}
