import Foundation
import PreloadTestSupport
import Testing

/// `preload --manifest FILE --group NAME` and `preload manifest check FILE`.
@Suite struct ManifestCommandTests {
    static let sampleManifest = PackLoadCommandTests.sampleAssets + "/levels.json"

    @Test func aGroupLoadsWithWhatItRequiresUnderTheManifestsNames() async throws {
        let directory = try TemporaryDirectory()
        let run = try await CommandRunner.preload(["--manifest", Self.sampleManifest, "--group", "level1", "--json"], in: directory.path)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let assets = try #require(document["assets"] as? [[String: Any]])
        let names = assets.compactMap { $0["name"] as? String }
        #expect(Array(names.prefix(4)) == ["sprites/hero.png", "sprites/coin.png", "ui", "backgrounds/forest.png"])
        #expect(names.contains("tiles/grass_tile.png") && names.contains("creatures") && names.contains("level1"))
        #expect(!names.contains("sprites/slime.png"))  // extras' only

        let unknown = try await CommandRunner.preload(["--manifest", Self.sampleManifest, "--group", "level9"], in: directory.path)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("\(Self.sampleManifest): no group named 'level9'"))
    }

    @Test func checkNamesEveryProblemAndExitsOne() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("art/hero.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        _ = try directory.write("art/notes.txt", text: "not an asset")
        let manifest = try directory.write(
            "levels.json",
            text: """
                {"groups": {
                  "a": {"requires": ["b"], "assets": ["art/hero.png", "art/missing.png"]},
                  "b": {"requires": ["a"], "assets": ["art/notes.txt", {"path": "art/hero.png", "name": "h", "plugin": "tga"}, "art/hero.png/"]}
                }}
                """)
        let run = try await CommandRunner.preload(["manifest", "check", manifest], in: directory.path)
        #expect(run.status == 1)
        let art = directory.path + "/art"
        #expect(
            run.stderr.split(separator: "\n").map(String.init) == [
                "Error: \(manifest): group 'a': the groups require each other: a -> b -> a",
                "Error: \(manifest): group 'a': entry 2 ('art/missing.png'): \(art)/missing.png does not exist",
                "Error: \(manifest): group 'b': the groups require each other: b -> a -> b",
                "Error: \(manifest): group 'b': entry 1 ('art/notes.txt'): no plugin loads \(art)/notes.txt",
                "Error: \(manifest): group 'b': entry 2 ('art/hero.png'): no plugin is called 'tga' (registered: animated-webp, apng, aseprite, aseprite-sheet, atlas, audio, baked, bmfont, data, gif, jpeg, json, ktx2, pack, png, qoi, tilemap, truetype, webp)",
                "Error: \(manifest): group 'b': entry 3 ('art/hero.png/'): \(art)/hero.png is not a folder (a path ending in '/' names one)",
            ])

        let sound = try await CommandRunner.preload(["manifest", "check", Self.sampleManifest], in: directory.path)
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(sound.stdout.contains("3 groups, 11 entries, no problems"))
    }
}

/// `preload --manifest` on a Phaser project's pack, from the web root or with `--root`.
@Suite struct PhaserPackCommandTests {
    @Test func aPhaserPackLoadsFromTheWebRootAndCountsWhatItSkips() async throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let run = try await CommandRunner.preload(
            ["--manifest", project.pack, "--root", project.root, "--group", "level1", "--json"], in: elsewhere.path)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let names = try #require(document["assets"] as? [[String: Any]]).compactMap { $0["name"] as? String ?? $0["path"] as? String }
        #expect(
            names == [
                "l1.hero", project.file("assets/images/hero_n.png"), "l1.ui", "l1.creatures", "l1.coin", "l1.level", "l1.tiles", "l1.theme",
                "l1.sfx", "l1.font", "l1.map", "l1.grid",
            ])
        let assets = try #require(document["assets"] as? [[String: Any]])
        let sfx = try #require(assets.first { $0["name"] as? String == "l1.sfx" })
        #expect(sfx["kind"] as? String == "sound" && sfx["frameCount"] as? Int == 16000)
        let ranges = try #require(sfx["ranges"] as? [String: [String: Any]])
        #expect(ranges["jump"]?["start"] as? Int == 0 && ranges["jump"]?["end"] as? Int == 4000 && ranges["coin"]?["loops"] as? Bool == true)
        #expect(ranges["coin"]?["start"] as? Int == 8000 && ranges["coin"]?["end"] as? Int == 14000)
        let notices = try #require(document["manifestNotices"] as? [[String: Any]])
        #expect(notices.compactMap { $0["kind"] as? String } == ["not-on-disk", "key-repeated", "unsupported-type"])
        let font = try #require(assets.first { $0["name"] as? String == "l1.font" })
        #expect(font["kind"] as? String == "font" && font["format"] as? String == "bmfont-xml" && font["glyphCount"] as? Int == 2)
        #expect(font["face"] as? String == "Pixel" && font["lineHeight"] as? Int == 9 && font["kerningPairCount"] as? Int == 1)
        #expect((font["pages"] as? [[String: Any]])?.first?["path"] as? String == project.file("assets/fonts/f.png"))
        let map = try #require(assets.first { $0["name"] as? String == "l1.map" })
        #expect(map["kind"] as? String == "tilemap" && map["columns"] as? Int == 2 && map["tileWidth"] as? Int == 4 && map["layerCount"] as? Int == 1)
        #expect((map["pages"] as? [[String: Any]])?.first?["path"] as? String == project.file("assets/maps/../tiles.png"))  // as the map names it

        // From the web root without --root, as Phaser Editor lays a project out; --strict fails the
        // remote URL and the repeated key, and names them.
        let strict = try await CommandRunner.preload(["--manifest", "assets/asset-pack.json", "--strict"], in: project.root)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("Loaded 14 of 14 assets"))
        #expect(strict.stdout.contains("skipped:   1 manifest entry no plugin loads (video 1)"))
        #expect(
            strict.stdout.contains(
                "FAIL  assets/asset-pack.json: group 'level1': entry 10 ('l1.banner'): image: not loaded: //cdn.example.com/banner.png is neither a file on disk nor an http or https URL"
            ))

        // Relative to the pack's own folder, as a Preload manifest would be, nothing is found.
        let wrongRoot = try await CommandRunner.preload(["--manifest", "asset-pack.json", "--group", "boot"], in: project.file("assets"))
        #expect(wrongRoot.status == 1)
        #expect(wrongRoot.stdout.contains("assets/images/sky.png"))
        #expect(wrongRoot.stderr.contains("hint: 2 files of the Phaser asset pack not found from the current folder"), "\(wrongRoot.stderr)")
        #expect(wrongRoot.stderr.contains("pass --root DIR"))
        let exported = try await CommandRunner.preload(
            ["export", "--manifest", "asset-pack.json", "--group", "boot", "--to", "out"], in: project.file("assets"))
        #expect(exported.status == 1 && exported.stderr.contains("pass --root DIR"), "\(exported.stderr)")
        let rooted = try await CommandRunner.preload(
            ["export", "--manifest", "asset-pack.json", "--root", project.root, "--group", "boot", "--to", "out"], in: project.file("assets"))
        #expect(rooted.status == 0 && !rooted.stderr.contains("hint"), "export takes --root as load does: \(rooted.stderr)")

        let check = try await CommandRunner.preload(["manifest", "check", project.pack, "--root", project.root], in: elsewhere.path)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("2 groups, 14 entries, 1 skipped (types no plugin loads), 2 warnings, no problems"))
        #expect(check.stderr.contains("warning: \(project.pack): group 'level1': entry 11 ('l1.hero')"))
        #expect(!check.stderr.contains("hint"), "\(check.stderr)")
        // Checked from the pack's own folder without --root: the problems, and the loader's hint.
        let unrooted = try await CommandRunner.preload(["manifest", "check", "asset-pack.json"], in: project.file("assets"))
        #expect(unrooted.status == 1 && unrooted.stderr.contains("assets/images/sky.png does not exist"), "\(unrooted.stderr)")
        #expect(unrooted.stderr.contains("of the Phaser asset pack not found from the current folder"), "\(unrooted.stderr)")
        #expect(unrooted.stderr.contains("pass --root DIR"))
    }
}

/// `preload --watch`: a line per reload or failure until interrupted.
@Suite struct WatchCommandTests {
    @Test func editsPrintOneLineEachUntilInterrupted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let hero = try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)))
        let output = try await CommandRunner.preloadUntil(
            ["--watch", "-q", "art"], in: directory.path, waits: ["Watching 1 asset in 1 folder", "failed", "reloaded"]
        ) {
            try Data(PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)).prefix(30)).write(
                to: URL(fileURLWithPath: hero))
            Thread.sleep(forTimeInterval: 1.5)
            try Data(PNGFixture.rgba(width: 6, height: 2, pixels: PNGFixture.noise(width: 6, height: 2))).write(to: URL(fileURLWithPath: hero))
        }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Watching 1 asset in 1 folder; Ctrl-C stops.")
        #expect(lines.contains { $0.hasPrefix("failed art/hero.png: ") && $0.hasSuffix("; the loaded asset stays") })
        #expect(lines.last == "reloaded art/hero.png: 6x2")
    }

    @Test func aFileThatFailedAtStartLoadsOnceFixed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let coin = try directory.write(
            "art/coin.png", Array(PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)).prefix(30)))
        let output = try await CommandRunner.preloadUntil(["--watch", "-q", "art"], in: directory.path, waits: ["Ctrl-C stops.", "reloaded"]) {
            try Data(PNGFixture.rgba(width: 3, height: 5, pixels: PNGFixture.noise(width: 3, height: 5))).write(to: URL(fileURLWithPath: coin))
        }
        #expect(output.split(separator: "\n").first == "Watching 1 asset in 1 folder; Ctrl-C stops.", "\(output)")
        #expect(output.split(separator: "\n").last == "reloaded art/coin.png: 3x5", "\(output)")
    }

    @Test func aDeletedFileIsNamedAsTheCommandWasGivenIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)))
        let coin = try directory.write("art/coin.png", PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)))
        let output = try await CommandRunner.preloadUntil(["--watch", "-q", "art"], in: directory.path, waits: ["Ctrl-C stops.", "missing"]) {
            try FileManager.default.removeItem(atPath: coin)
        }
        #expect(output.split(separator: "\n").last == "missing art/coin.png: art/coin.png is gone; the loaded asset stays", "\(output)")
    }

    @Test func aFileAddedToAFolderGivenLoads() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/readme.txt", text: "no plugin claims this: nothing loads, the folder is still watched")
        let output = try await CommandRunner.preloadUntil(["--watch", "-q", "art"], in: directory.path, waits: ["Ctrl-C stops.", "added"]) {
            try directory.write("art/new/coin.png", PNGFixture.rgba(width: 3, height: 5, pixels: PNGFixture.noise(width: 3, height: 5)))
        }
        #expect(output.split(separator: "\n") == ["Watching 0 assets in 1 folder; Ctrl-C stops.", "added art/new/coin.png: 3x5"], "\(output)")
    }

    @Test func aFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)))
        let output = try await CommandRunner.preloadUntil(
            ["--watch", "-q", "art"], in: directory.path, waits: ["Ctrl-C stops.", "reloaded", "added"]
        ) {
            try FileManager.default.removeItem(atPath: directory.file("art"))  // an exporter wiping its output
            try directory.write("art/hero.png", PNGFixture.rgba(width: 6, height: 2, pixels: PNGFixture.noise(width: 6, height: 2)))
            try directory.write("art/gem.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Watching 1 asset in 1 folder; Ctrl-C stops.", "\(output)")
        #expect(lines.contains("reloaded art/hero.png: 6x2") && lines.contains("added art/gem.png: 2x2"), "\(output)")
    }

    @Test func theWatchingLineCountsInThePlural() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for name in ["art/hero.png", "art/coin.png", "more/slime.png"] {
            try directory.write(name, PNGFixture.rgba(width: 4, height: 4, pixels: PNGFixture.noise(width: 4, height: 4)))
        }
        let output = try await CommandRunner.preloadUntil(["--watch", "-q", "art", "more"], in: directory.path, waits: ["Ctrl-C stops."]) {}
        #expect(output.split(separator: "\n").first == "Watching 3 assets in 2 folders; Ctrl-C stops.", "\(output)")
    }
}
