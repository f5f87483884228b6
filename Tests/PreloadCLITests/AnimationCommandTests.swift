import Foundation
import PreloadTestSupport
import Testing

/// An animation (here Aseprite's sheet export: a PNG and its JSON with `frameTags`) through the
/// command: `preload bake` writes it as an animation entry and its page, `--json --checksum` and
/// `--verbose` describe the baked one as the loose one, and `preload export` writes a sheet and
/// JSON that `preload` loads back as the same animation.
@Suite struct AnimationCommandTests {
    /// A 4x2 sheet of two 2x2 frames, side by side, tagged.
    static func writeExport(in directory: TemporaryDirectory) throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 2 * 4)
        for index in 0..<8 where index % 4 < 2 || index == 6 {
            pixels.replaceSubrange(index * 4..<index * 4 + 4, with: [200, UInt8(index * 20), 40, 255])
        }
        try directory.write("anims/bat.png", PNGFixture.rgba(width: 4, height: 2, pixels: pixels))
        try directory.write(
            "anims/bat.json",
            text: #"""
                {"frames": {
                  "bat 0.aseprite": {"frame": {"x": 0, "y": 0, "w": 2, "h": 2}, "sourceSize": {"w": 2, "h": 2}, "duration": 90},
                  "bat 1.aseprite": {"frame": {"x": 2, "y": 0, "w": 2, "h": 2}, "sourceSize": {"w": 2, "h": 2}, "duration": 110}},
                 "meta": {"image": "bat.png", "size": {"w": 4, "h": 2}, "frameTags": [{"name": "fly", "from": 0, "to": 1, "direction": "pingpong"}]}}
                """#)
    }

    /// `--json --checksum`'s animations by name, without what differs by nature (path, plugin, timings).
    static func animations(_ run: CommandRunner.Run) throws -> [String: NSDictionary] {
        let document = try #require(run.json, "\(run.stdout)\(run.stderr)")
        var found: [String: NSDictionary] = [:]
        for asset in try #require(document["assets"] as? [[String: Any]]) where asset["kind"] as? String == "animation" {
            var fields = asset
            for key in ["path", "plugin", "seconds", "timings", "name"] { fields[key] = nil }
            found[(asset["name"] ?? asset["path"]) as! String] = fields as NSDictionary
        }
        return found
    }

    @Test func aBakedAnimationIsDescribedAsTheLooseOneAndExportsAnEqualSheet() async throws {
        let directory = try TemporaryDirectory("animation-command")
        try Self.writeExport(in: directory)
        let bake = try await CommandRunner.preload(["bake", "anims", "-o", "anims.bake"], in: directory.path)
        #expect(
            bake.status == 0 && bake.stdout.hasPrefix("Baked 2 entries (0 textures, 1 animation, 1 page made at load)"),
            "\(bake.stdout)\(bake.stderr)")
        let loose = try Self.animations(try await CommandRunner.preload(["anims", "--json", "--checksum"], in: directory.path))
        let baked = try Self.animations(try await CommandRunner.preload(["anims.bake", "--json", "--checksum"], in: directory.path))
        #expect(loose.count == 1 && loose == baked, "\(loose) \(baked)")
        #expect((loose["anims/bat.json"]?["pages"] as? [[String: Any]])?.first?["sha256"] != nil)
        let verbose = try await CommandRunner.preload(["anims.bake", "--verbose"], in: directory.path)
        #expect(verbose.stdout.contains("animation 2x2, 2 frames, 200 ms, loops, 1 tag (fly)"), "\(verbose.stdout)")
        let export = try await CommandRunner.preload(["export", "anims.bake", "--to", "out"], in: directory.path)
        #expect(export.status == 0 && export.stdout.contains("1 animation (Aseprite JSON)"), "\(export.stdout)\(export.stderr)")
        // The store name kept whole, the extension appended, as every export is named.
        let again = try Self.animations(try await CommandRunner.preload(["out/anims/bat.json.json", "--json", "--checksum"], in: directory.path))
        #expect(again["out/anims/bat.json.json"] == loose["anims/bat.json"], "\(again) \(loose)")
    }
}
