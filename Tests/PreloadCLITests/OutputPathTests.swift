import Foundation
import PreloadTestSupport
import Testing

/// One rule for every path the command writes to: the folder holding it must exist (a usage
/// error naming it otherwise, and nothing is made); only an output folder the command fills
/// (`export --to`, `pack extract -o`) is made when missing.
@Suite struct OutputPathTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("art/hero.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        try directory.write("art/ui.json", text: #"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}}, "meta": {"image": "hero.png"}}"#)
        try directory.write("sprites.atlas/a.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
    }

    @Test(arguments: [
        ["bake", "art", "-o", "missing/dir/level.bake"],
        ["art", "--contact-sheet", "missing/dir/sheet.png"],
        ["pack", "create", "art", "-o", "missing/dir/art.pak"],
        ["atlas", "pack", "sprites.atlas", "--output", "missing/dir/sprites"],
        ["export", "art", "--to", "missing/dir/out"],
        ["pack", "extract", "art.pak", "-o", "missing/dir/out"],
    ])
    func anOutputWhoseFolderIsMissingIsAUsageError(arguments: [String]) async throws {
        if arguments.contains("extract") {
            #expect(try await CommandRunner.preload(["pack", "create", "art", "-o", "art.pak"], in: directory.path).status == 0)
        }
        let run = try await CommandRunner.preload(arguments, in: directory.path)
        #expect(run.status == 64 && run.stderr.contains(": the folder missing/dir does not exist"), "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing")), "nothing made")
    }

    @Test func anOutputFolderTheCommandFillsIsMadeInsideOneThatExists() async throws {
        let run = try await CommandRunner.preload(["export", "art", "--to", "out"], in: directory.path)
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: directory.file("out/art/hero.png.png")), "\(run.stderr)")
    }
}
