import Foundation
import PreloadTestSupport
import Testing

/// Warnings in the command's summary, `--verbose` and `--json`; `--strict` failing them; names
/// escaping an archive refused by every pack command.
@Suite struct WarningsCommandTests {
    let directory: TemporaryDirectory
    static let pixels = PNGFixture.noise(width: 6, height: 4, seed: 8)
    static let png = PNGFixture.rgba(width: 6, height: 4, pixels: pixels)

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("art/clean.png", Self.png)
        try directory.write("art/no-iend.png", Array(Self.png.dropLast(12)))
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    @Test func aForgivenFileLoadsAndIsCountedListedAndFailedUnderStrict() async throws {
        let summary = try await preload(["art"])
        #expect(summary.status == 0 && summary.stdout.contains("Loaded 2 of 2 assets"), "\(summary.stdout)\(summary.stderr)")
        #expect(summary.stdout.contains("  warnings:  1 in 1 asset (--verbose lists them; --strict fails them)"))

        let verbose = try await preload(["art", "--verbose"])
        #expect(
            verbose.stdout.contains("art/no-iend.png  6x4 rgba8")
                && verbose.stdout.contains("        warning: no IEND chunk; the image data is complete"))

        let json = try await preload(["art", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let assets = try #require(document["assets"] as? [[String: Any]])
        let forgiven = try #require(assets.first { ($0["path"] as? String)?.hasSuffix("no-iend.png") == true })
        let warnings = try #require(forgiven["warnings"] as? [[String: String]])
        #expect(warnings.map { $0["code"] } == ["png.no-iend"] && forgiven["status"] as? String == "loaded")
        #expect(assets.first { ($0["path"] as? String)?.hasSuffix("clean.png") == true }?["warnings"] == nil)
        #expect((document["summary"] as? [String: Any])?["warnings"] as? Int == 1)

        let strict = try await preload(["art", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("FAIL  art/no-iend.png: strict: no IEND chunk; the image data is complete"), "\(strict.stdout)")
        #expect(strict.stdout.hasPrefix("FAILED 1 asset; loaded 1 of 2 assets"), "\(strict.stdout)")
    }

    @Test func atlasCheckWarnsAndStrictFails() async throws {
        try directory.write("page.png", PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        try directory.write(
            "ui.atlas",
            text: "page.png\r\nsize: 16, 16\r\nbutton\r\n  bounds: 0, 0, 8, 8\r\nbutton\r\n  bounds: 0, 0, 8, 8\r\n  split: 2, 2, 2, 2\r\n")
        let check = try await preload(["atlas", "check", "ui.atlas"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("warning: ui.atlas: CRLF (Windows) line ends"))
        #expect(check.stdout.contains("warning: ui.atlas: frame 'button' is named more than once; the first is used by name"))
        #expect(check.stdout.contains("ui.atlas: libgdx, 2 frames on 1 page: ok, 2 warnings"))
        let strict = try await preload(["atlas", "check", "ui.atlas", "--strict"])
        #expect(strict.status == 1 && strict.stdout.contains("ui.atlas: libgdx, 2 frames on 1 page: 2 problems"))
        let load = try await preload(["--atlas", "ui.atlas"])
        #expect(load.status == 0 && load.stdout.contains("warnings:  2 in 1 asset"), "\(load.stdout)")
    }

    @Test func escapingEntriesFailByNameInEveryPackCommand() async throws {
        try directory.write("evil.zip", ZipFixture.stored([("../escape.txt", Array("x".utf8)), ("fine.txt", Array("y".utf8))]))
        let list = try await preload(["pack", "list", "evil.zip", "--verify"])
        #expect(list.status == 1)
        #expect(list.stdout.contains("../escape.txt\tFAILED: entry '../escape.txt' would reach outside the archive: it has a '..' component"))
        #expect(list.stdout.contains("fine.txt\tok"))
        let load = try await preload(["--pack", "evil.zip"])
        #expect(load.status == 1 && load.stdout.hasPrefix("FAILED 1 pack entry; loaded 1 of 1 asset (1 of 2 pack entries) in "), "\(load.stdout)")
        #expect(load.stdout.contains("  failed:    1 pack entry\n"))
        #expect(load.stdout.contains("FAIL  evil.zip#../escape.txt: entry '../escape.txt' would reach outside the archive"))
        let extract = try await preload(["pack", "extract", "evil.zip", "--output", "out"])
        #expect(extract.status == 1 && extract.stderr.contains("Error: evil.zip: '../escape.txt' would land outside out: it has a '..' component"))
        #expect(
            !FileManager.default.fileExists(atPath: directory.file("out/fine.txt"))
                && !FileManager.default.fileExists(atPath: directory.file("escape.txt")))
    }

    @Test func twoPacksWithEntriesOfOneNameKeepBothAndWarn() async throws {
        try directory.write("one/art/hero.png", Self.png)
        try directory.write("two/art/hero.png", PNGFixture.rgba(width: 3, height: 2, pixels: PNGFixture.noise(width: 3, height: 2, seed: 9)))
        for pack in ["one", "two"] {
            let bake = try await CommandRunner.preload(["bake", "art", "-o", "../\(pack).bake"], in: directory.file(pack))
            #expect(bake.status == 0, "\(bake.stdout)\(bake.stderr)")
        }
        let summary = try await preload(["one.bake", "two.bake"])
        #expect(summary.status == 0 && summary.stdout.contains("Loaded 2 of 2 assets"), "\(summary.stdout)\(summary.stderr)")
        #expect(summary.stdout.contains("  warnings:  1 in 1 asset"))
        let verbose = try await preload(["one.bake", "two.bake", "--verbose"])
        #expect(verbose.stdout.contains("  ok    art/hero.png (one.bake#art/hero.png)  6x4 rgba8"), "\(verbose.stdout)")
        #expect(verbose.stdout.contains("  ok    two.bake#art/hero.png  3x2 rgba8"), "\(verbose.stdout)")
        #expect(
            verbose.stdout.contains(
                "warning: the store name 'art/hero.png' is already given to 'one.bake#art/hero.png', requested first in this batch, "
                    + "which keeps it; stored as 'two.bake#art/hero.png' instead"))

        let json = try await preload(["one.bake", "two.bake", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let assets = try #require(document["assets"] as? [[String: Any]])
        #expect(assets.map { $0["path"] as? String } == ["one.bake#art/hero.png", "two.bake#art/hero.png"])
        #expect(assets.map { $0["width"] as? Int } == [6, 3], "each pack's own texture")
        #expect(assets[0]["warnings"] == nil)
        let warnings = try #require(assets[1]["warnings"] as? [[String: String]])
        #expect(warnings.map { $0["code"] } == ["store-name-taken"] && warnings.first?["file"] == "two.bake#art/hero.png")
        let strict = try await preload(["one.bake", "two.bake", "--strict"])
        #expect(strict.status == 1 && strict.stdout.contains("FAIL  two.bake#art/hero.png: strict: the store name"), "\(strict.stdout)")
    }
}
