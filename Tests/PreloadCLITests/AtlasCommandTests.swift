import Foundation
import Preload
import PreloadRemote
import PreloadTestSupport
import Testing

/// `preload --atlas`, atlas folders met while walking, `atlas pack`, `atlas check`, `--contact-sheet`.
@Suite struct AtlasCommandTests {
    let cli = AtlasCommandTests.Runner()

    struct Runner {
        func preload(_ arguments: [String], in directory: String) async throws -> CommandRunner.Run {
            try await CommandRunner.preload(arguments, in: directory)
        }
    }
    let directory: TemporaryDirectory
    static let sprites: [String: (width: Int, height: Int, pixels: [UInt8])] = [
        "a": (6, 5, PNGFixture.noise(width: 6, height: 5, seed: 21)),
        "b": (9, 4, PNGFixture.noise(width: 9, height: 4, seed: 22)),
        "c": (3, 11, PNGFixture.noise(width: 3, height: 11, seed: 23)),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("out"), withIntermediateDirectories: false)  // outputs' folders must exist
        for (name, sprite) in Self.sprites {
            try directory.write("art/hero.atlas/\(name).png", PNGFixture.rgba(width: sprite.width, height: sprite.height, pixels: sprite.pixels))
        }
        // A one-page TexturePacker atlas: sprite "a" at (1, 1) on a 16x16 page.
        var page = [UInt8](repeating: 0, count: 16 * 16 * 4)
        let a = Self.sprites["a"]!
        for y in 0..<a.height {
            for x in 0..<a.width {
                let from = (y * a.width + x) * 4, to = ((y + 1) * 16 + x + 1) * 4
                page.replaceSubrange(to..<to + 4, with: a.pixels[from..<from + 4])
            }
        }
        try directory.write("ui/page.png", PNGFixture.rgba(width: 16, height: 16, pixels: page))
        try directory.write(
            "ui/ui.json",
            text: #"{"frames": {"a.png": {"frame": {"x": 1, "y": 1, "w": 6, "h": 5}}}, "meta": {"image": "page.png", "size": {"w": 16, "h": 16}}}"#)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        (try? SHA256.hash(data: bytes))?.hexString ?? "(libcrypto missing)"
    }

    @Test func atlasJSONHasPagesAndFramesWithChecksums() async throws {
        let run = try await cli.preload(["--atlas", "ui/ui.json", "--json", "--checksum"], in: directory.path)
        #expect(run.status == 0, "\(run.stderr)")
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        #expect(assets.count == 1, "an atlas is one asset; its page is not listed on its own")
        let atlas = assets[0]
        #expect(atlas["kind"] as? String == "atlas" && atlas["plugin"] as? String == "atlas")
        #expect(atlas["format"] as? String == "texturepacker-hash" && atlas["status"] as? String == "loaded")
        let page = try #require((atlas["pages"] as? [[String: Any]])?.first)
        #expect(page["path"] as? String == "ui/page.png" && page["width"] as? Int == 16 && page["height"] as? Int == 16)
        #expect((page["sha256"] as? String)?.count == 64)
        let frame = try #require((atlas["frames"] as? [[String: Any]])?.first)
        #expect(frame["name"] as? String == "a.png" && frame["page"] as? Int == 0)
        #expect(frame["x"] as? Int == 1 && frame["y"] as? Int == 1 && frame["w"] as? Int == 6 && frame["h"] as? Int == 5)
        #expect(frame["rotation"] as? String == "none" && frame["rotated"] as? Bool == false)
        #expect(frame["offsetX"] as? Int == 0 && frame["sourceW"] as? Int == 6)
        #expect(frame["sha256"] as? String == Self.sha256(Self.sprites["a"]!.pixels), "a frame's hash is its sprite's")
    }

    @Test func atlasFoldersFoundWhileWalkingAreOneAssetEach() async throws {
        let run = try await cli.preload(["art", "--json"], in: directory.path)
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        #expect(assets.map { $0["path"] as? String } == ["art/hero.atlas"])
        #expect(assets[0]["format"] as? String == "folder" && (assets[0]["frames"] as? [Any])?.count == 3)
    }

    @Test func packWritesPagesAndADescriptorThatLoadBackPixelExact() async throws {
        let pack = try await cli.preload(["atlas", "pack", "art/hero.atlas", "--output", "out/hero"], in: directory.path)
        #expect(pack.status == 0, "\(pack.stderr)")
        #expect(pack.stdout.hasPrefix("Packed 3 sprites onto 1 page"))
        #expect(FileManager.default.fileExists(atPath: directory.file("out/hero.json")))
        #expect(FileManager.default.fileExists(atPath: directory.file("out/hero-0.png")))
        let load = try await cli.preload(["--atlas", "out/hero.json", "--json", "--checksum"], in: directory.path)
        let frames = try #require((load.json?["assets"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]])
        #expect(frames.count == 3)
        for frame in frames {
            let name = String((frame["name"] as? String ?? "").dropLast(4))
            #expect(frame["sha256"] as? String == Self.sha256(Self.sprites[name]!.pixels), "\(name)")
        }
        #expect(try await cli.preload(["atlas", "check", "out/hero.json"], in: directory.path).status == 0)
    }

    @Test func aFailedPackLeavesNoFiles() async throws {
        let pack = try await cli.preload(["atlas", "pack", "art/hero.atlas", "--output", "out/small", "--max-page-size", "8"], in: directory.path)
        #expect(pack.status == 1)
        #expect(pack.stderr.contains("does not fit a 8x8 page"), "\(pack.stderr)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? []
        #expect(written.isEmpty, "\(written)")
    }

    @Test func absurdMarginsAreAUsageError() async throws {
        for flag in ["--padding", "--extrude"] {
            let pack = try await cli.preload(
                ["atlas", "pack", "art/hero.atlas", "--output", "out/x", flag, "9223372036854775807"], in: directory.path)
            #expect(pack.status == 64 && pack.stderr.contains("--padding and --extrude 0-4096"), "\(pack.stderr)")
        }
    }

    @Test func checkReportsProblemsAndExitsOne() async throws {
        try directory.write(
            "ui/bad.json",
            text:
                #"{"frames": {"x.png": {"frame": {"x": 12, "y": 0, "w": 8, "h": 8}}, "y.png": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}}, "z.png": {"frame": {"x": 4, "y": 4, "w": 8, "h": 8}}}, "meta": {"image": "page.png"}}"#
        )
        try directory.write("ui/lost.json", text: #"{"frames": {}, "meta": {"image": "gone.png"}}"#)
        let bad = try await cli.preload(["atlas", "check", "ui/bad.json"], in: directory.path)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("frame 'x.png' at (12, 0, 8x8) lies outside page page.png (16x16)"))
        #expect(bad.stdout.contains("frames 'y.png' and 'z.png' overlap"))
        let lost = try await cli.preload(["atlas", "check", "ui/lost.json"], in: directory.path)
        #expect(lost.status == 1 && lost.stdout.contains("page gone.png failed: no such file"), "\(lost.stdout)")
        let good = try await cli.preload(["atlas", "check", "ui/ui.json"], in: directory.path)
        #expect(good.status == 0 && good.stdout.hasSuffix("texturepacker-hash, 1 frame on 1 page: ok\n"))
    }

    @Test func contactSheetIsAPicture() async throws {
        let run = try await cli.preload(["--atlas", "ui/ui.json", "--contact-sheet", "sheet.png", "--quiet"], in: directory.path)
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file("sheet.png"))))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19]) == 16 + 2 * 8, "width: the page plus margins")
    }
}
