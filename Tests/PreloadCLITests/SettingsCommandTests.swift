import Foundation
import PreloadTestSupport
import Testing

/// `--set KEY.NAME=VALUE`: any plugin's settings from the command line, named as a manifest's
/// `"options"` name them, with the manifest's errors; the specific flags spell the same settings.
@Suite struct SettingsCommandTests {
    let directory: TemporaryDirectory
    static let png = PNGFixture.rgba(width: 6, height: 4, pixels: PNGFixture.noise(width: 6, height: 4, seed: 3))

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("art/noise.png", Self.png)
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    /// The SHA-256 of the one texture's pixels, as `--checksum --json` gives it.
    func pixels(_ arguments: [String]) async throws -> String {
        let run = try await preload(["art", "--checksum", "--json"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require((document["assets"] as? [[String: Any]])?.first?["sha256"] as? String)
    }

    @Test func aSettingChangesTheLoadAsItsFlagDoes() async throws {
        let straight = try await pixels([])
        let set = try await pixels(["--set", "png.alpha=premultiplied"])
        #expect(set != straight)
        #expect(set == (try await pixels(["--premultiply"])))
        // The flag still counts beside a --set of the same plugin.
        #expect(set == (try await pixels(["--premultiply", "--set", "png.maxWidth=64"])))

        let limited = try await preload(["art", "--set", "png.maxWidth=5"])
        #expect(limited.status == 1 && limited.stdout.contains("art/noise.png"), "\(limited.stdout)\(limited.stderr)")
    }

    @Test func unknownKeysAndBadValuesFailAsInAManifest() async throws {
        try directory.write(
            "levels.json", text: #"{"groups": {"a": {"assets": [{"path": "art/noise.png", "options": {"png": {"alpha": "pre"}}}]}}}"#)
        let manifest = try await preload(["manifest", "check", "levels.json"])
        let value = #"'png': 'alpha' must be one of "straight", "premultiplied""#
        #expect(manifest.status == 1 && manifest.stderr.contains("'options': " + value), "\(manifest.stderr)")

        let bad = try await preload(["art", "--set", "png.alpha=pre"])
        #expect(bad.status == 64 && bad.stderr.contains("--set: " + value), "\(bad.stderr)")
        let unknown = try await preload(["art", "--set", "png.alpa=premultiplied"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--set: 'png': unknown option 'alpa'"), "\(unknown.stderr)")
        let key = try await preload(["art", "--set", "pgn.alpha=premultiplied"])
        #expect(
            key.status == 64
                && key.stderr.contains(
                    "--set: no plugin's options are called 'pgn' (known: aseprite-sheet, atlas, audio, bmfont, jpeg, png, qoi, tilemap, truetype, webp)"
                ),
            "\(key.stderr)")
    }

    @Test func aManifestEntrysSettingsMeetTheCommandLines() async throws {
        try directory.write(
            "levels.json", text: #"{"groups": {"a": {"assets": [{"path": "art/noise.png", "options": {"png": {"maxWidth": 5}}}]}}}"#)
        let limited = try await preload(["--manifest", "levels.json"])
        #expect(limited.status == 1, "\(limited.stdout)")
        // The command line's member wins over the entry's; the entry's others stay.
        let widened = try await preload(["--manifest", "levels.json", "--set", "png.maxWidth=64"])
        #expect(widened.status == 0, "\(widened.stdout)\(widened.stderr)")
    }
}
