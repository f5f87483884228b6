import Foundation
import PreloadTestSupport
import Testing

/// `preload export PATHS --to DIR`: every texture as a PNG and every sound and music track as a
/// WAV under its store name, the same files whether the level is loose or baked.
@Suite struct ExportCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: PackLoadCommandTests.sampleAssets, toPath: directory.file("assets"))
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    @Test func looseAndBakedExportTheSameFiles() async throws {
        let loose = try await preload(["export", "assets", "--to", "loose"])
        #expect(
            loose.status == 0 && loose.stdout == "Exported 19 textures and 1 animation (Aseprite JSON) and 3 sounds (WAV) to loose\n",
            "\(loose.stdout)\(loose.stderr)")
        let files = try PackLoadCommandTests.tree(directory.file("loose"))
        #expect(files["assets/audio/theme.wav.wav"] != nil, "music decoded through its stream")
        // A sound exported as WAV loads back to the same samples.
        let sound = try await preload(["--json", "--checksum", "loose/assets/audio/jump.wav.wav", "assets/audio/jump.wav"])
        let sounds = try #require((try JSONSerialization.jsonObject(with: Data(sound.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
        #expect(sounds.count == 2 && sounds[0]["sha256"] as? String == sounds[1]["sha256"] as? String && sounds[0]["sha256"] != nil)
        let music = try await preload(["--json", "--checksum", "loose/assets/audio/theme.wav.wav", "assets/audio/theme.wav"])
        let tracks = try #require((try JSONSerialization.jsonObject(with: Data(music.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
        #expect(tracks.count == 2 && tracks[0]["sha256"] as? String == tracks[1]["sha256"] as? String && tracks[0]["kind"] as? String == "music")
        #expect(files["assets/sprites/hero.png.png"] != nil, "the store name kept whole, .png appended")
        #expect(files["assets/packs/level1.pak#hud/hud.png.png"] != nil, "a pack entry under its name")
        #expect(files["assets/atlases/creatures.atlas#1.png"] != nil, "a page packed at load time")
        #expect(try await preload(["bake", "assets", "-o", "level.bake"]).status == 0)
        let baked = try await preload(["export", "level.bake", "--to", "baked"])
        #expect(baked.status == 0, "\(baked.stderr)")
        #expect(try PackLoadCommandTests.tree(directory.file("baked")) == files, "byte for byte the same PNG files")
        // The exported hero decodes to the pixels the loader saw.
        let again = try await preload(["--json", "--checksum", "loose/assets/sprites/hero.png.png", "assets/sprites/hero.png"])
        let assets = try #require((try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
        #expect(assets.count == 2 && assets[0]["sha256"] as? String == assets[1]["sha256"] as? String)
    }

    /// `./assets` and `.` name their files `./assets/...`: written as `assets/...`, not refused
    /// as leaving the folder; `--root` names them relative to it.
    @Test func dottedAndRootedPathsExportUnderTheirPlainNames() async throws {
        let dotted = try await preload(["export", "./assets/sprites", "--to", "dotted"])
        #expect(dotted.status == 0 && dotted.stderr.isEmpty, "\(dotted.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("dotted/assets/sprites/hero.png.png")))
        let here = try await CommandRunner.preload(["export", ".", "--to", "../here"], in: directory.file("assets/sprites"))
        #expect(here.status == 0 && FileManager.default.fileExists(atPath: directory.file("assets/here/hero.png.png")), "\(here.stderr)")
        let rooted = try await preload(["export", "--root", directory.file("assets"), directory.file("assets/sprites"), "--to", "rooted"])
        #expect(rooted.status == 0 && FileManager.default.fileExists(atPath: directory.file("rooted/sprites/hero.png.png")), "\(rooted.stderr)")
    }

    @Test func aFailureIsNamedAndTheRestIsExported() async throws {
        try directory.write("odd/good.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        try directory.write("odd/cut.png", Array(PNGFixture.rgba(width: 8, height: 8, pixels: Array(repeating: 7, count: 256)).prefix(40)))
        let run = try await preload(["export", "odd", "--to", "out"])
        #expect(run.status == 1 && run.stderr.contains("odd/cut.png"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/odd/good.png.png")))
    }
}

/// The command with every codec: a sprite folder mixing formats, a JPEG saved as `.png`, and the
/// same level baked.
@Suite struct MixedFormatsCommandTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path

    @Test func aSpriteFolderOfEveryFormatLoadsAndBakes() async throws {
        let directory = try TemporaryDirectory()
        let copies = [
            ("PreloadWebPTests/Fixtures/cwebp-lossless.webp", "level/ui.atlas/gem.webp"),
            ("PreloadJPEGTests/Fixtures/cjpeg-411.jpg", "level/ui.atlas/photo.jpg"),
            ("PreloadQOITests/Fixtures/pillow-every-op.qoi", "level/ui.atlas/tile.qoi"),
            ("PreloadJPEGTests/Fixtures/cjpeg-440.jpg", "level/misnamed.png"),
        ]
        try FileManager.default.createDirectory(atPath: directory.file("level/ui.atlas"), withIntermediateDirectories: true)
        for (source, target) in copies { try FileManager.default.copyItem(atPath: Self.tests + "/" + source, toPath: directory.file(target)) }
        try directory.write("level/ui.atlas/dot.png", PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 200, count: 16)))
        let run = try await CommandRunner.preload(["level", "--json"], in: directory.path)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let assets = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["assets"] as? [[String: Any]])
        let atlas = try #require(assets.first { $0["path"] as? String == "level/ui.atlas" })
        #expect((atlas["frames"] as? [[String: Any]])?.count == 4, "\(atlas)")
        let misnamed = try #require(assets.first { $0["path"] as? String == "level/misnamed.png" })
        #expect(misnamed["plugin"] as? String == "jpeg" && misnamed["status"] as? String == "loaded", "\(misnamed)")
        #expect("\(misnamed["warnings"] ?? "")".contains("content-not-extension"), "\(misnamed)")
        // Baked, the same textures come back.
        #expect(try await CommandRunner.preload(["bake", "level", "-o", "level.bake"], in: directory.path).status == 0)
        let loose = try await CommandRunner.preload(["export", "level", "--to", "loose"], in: directory.path)
        let baked = try await CommandRunner.preload(["export", "level.bake", "--to", "baked"], in: directory.path)
        #expect(loose.status == 0 && baked.status == 0, "\(loose.stderr)\(baked.stderr)")
        #expect(try PackLoadCommandTests.tree(directory.file("loose")) == PackLoadCommandTests.tree(directory.file("baked")))
    }
}
