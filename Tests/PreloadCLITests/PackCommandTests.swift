import Foundation
import PreloadTestSupport
import Testing

/// `preload pack create`, `list`, `extract`.
@Suite struct PackCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("game/levels/one.txt", text: String(repeating: "level one. ", count: 500))
        try directory.write("game/art/noise.png", PNGFixture.rgba(width: 20, height: 20, pixels: PNGFixture.noise(width: 20, height: 20)))
        try directory.write("game/empty.dat", [])
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory.path)
    }

    func contents(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: directory.file(relative))) }

    @Test func createListExtractRoundTripsByteExact() async throws {
        let create = try await preload(["pack", "create", "game", "--output", "game.pak", "--jobs", "2"])
        #expect(create.status == 0 && create.stdout.hasPrefix("Packed 3 entries into game.pak"), "\(create.stderr)")
        let list = try await preload(["pack", "list", "game.pak", "--verify"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("\tzlib\tlevels/one.txt\tok") && list.stdout.contains("\tstored\tart/noise.png\tok"))
        #expect(list.stdout.hasSuffix("3 entries (pak), 0 failed\n"))
        let extract = try await preload(["pack", "extract", "game.pak", "--output", "copy"])
        #expect(extract.status == 0, "\(extract.stderr)")
        for name in ["levels/one.txt", "art/noise.png", "empty.dat"] {
            #expect(try contents("copy/" + name) == contents("game/" + name), "\(name)")
        }
    }

    @Test func oneEntryIsOneEntryAndAMissingPackIsAUsageError() async throws {
        try directory.write("single/only.txt", text: "one")
        let create = try await preload(["pack", "create", "single", "--output", "single.pak"])
        #expect(create.status == 0 && create.stdout.hasPrefix("Packed 1 entry into single.pak"), "\(create.stdout)\(create.stderr)")
        #expect(try await preload(["pack", "list", "single.pak"]).stdout.hasSuffix("\n1 entry (pak)\n"))
        for subcommand in [["list"], ["extract", "--output", "out"]] {
            let missing = try await preload(["pack", subcommand[0], "nope.pak"] + subcommand.dropFirst())
            #expect(missing.status == 64 && missing.stderr.hasPrefix("Error: no such file: nope.pak"), "\(subcommand): \(missing.stderr)")
        }
    }

    @Test func createIsDeterministicAcrossJobs() async throws {
        _ = try await preload(["pack", "create", "game", "--output", "one.pak", "--jobs", "1"])
        _ = try await preload(["pack", "create", "game", "--output", "two.pak", "--jobs", "2"])
        #expect(try contents("one.pak") == contents("two.pak"))
    }

    @Test func extractNeverOverwritesSilentlyNorLeavesTheFolder() async throws {
        _ = try await preload(["pack", "create", "game", "--output", "game.pak"])
        _ = try await preload(["pack", "extract", "game.pak", "--output", "copy"])
        try directory.write("copy/levels/one.txt", text: "edited")
        let again = try await preload(["pack", "extract", "game.pak", "--output", "copy"])
        #expect(again.status == 1 && again.stderr.contains("copy/levels/one.txt exists (use --overwrite to replace it)"))
        #expect(String(decoding: try contents("copy/levels/one.txt"), as: UTF8.self) == "edited", "nothing was written")
        #expect(try await preload(["pack", "extract", "game.pak", "--output", "copy", "--overwrite"]).status == 0)
        #expect(try contents("copy/levels/one.txt") == contents("game/levels/one.txt"))

        try FileManager.default.createDirectory(atPath: directory.file("trap"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("trap/levels"), withDestinationPath: directory.file("elsewhere"))
        let trapped = try await preload(["pack", "extract", "game.pak", "--output", "trap"])
        #expect(trapped.status == 1 && trapped.stderr.contains("would pass through the symbolic link trap/levels"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere/one.txt")))
    }

    @Test func damageIsReportedWithTheEntry() async throws {
        _ = try await preload(["pack", "create", "game", "--output", "game.pak"])
        var bytes = [UInt8](try contents("game.pak"))
        bytes[60] ^= 0xFF  // inside the first entry's data
        try directory.write("bad.pak", bytes)
        let list = try await preload(["pack", "list", "bad.pak", "--verify"])
        #expect(list.status == 1 && list.stdout.contains("FAILED: entry '"), "\(list.stdout)")
        bytes[bytes.count - 2] ^= 1  // the index
        try directory.write("worse.pak", bytes)
        let worse = try await preload(["pack", "list", "worse.pak"])
        #expect(worse.status == 1 && worse.stderr.contains("worse.pak: corrupt pack index: index checksum mismatch"))
    }
    /// A pack must never be missing a file silently: a name that is not UTF-8, a FIFO and a
    /// dangling link each stop `pack create` with the file and the cause, and no pack is left.
    @Test(arguments: ["name", "fifo", "dangling"])
    func filesThatCannotBePackedFailTheCreateByName(_ problem: String) async throws {
        switch problem {
        case "name": directory.createFileWithNonUTF8Name("game/art/odd\u{1}.png")
        case "fifo": #expect(mkfifo(directory.file("game/art/pipe.png"), 0o644) == 0)
        default: try FileManager.default.createSymbolicLink(atPath: directory.file("game/art/gone.png"), withDestinationPath: "nowhere.png")
        }
        let run = try await preload(["pack", "create", "game", "--output", "game.pak"])
        #expect(run.status == 1)
        let expected = [
            "name": "game/art/odd\u{FFFD}.png: its name is not valid UTF-8",
            "fifo": "game/art/pipe.png: is not a regular file",
            "dangling": "game/art/gone.png: no such file (a dangling symbolic link?)",
        ][problem]!
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("game.pak")))
    }

    /// A name may hold a newline (a fake line of the report) or an escape sequence (obeyed by the
    /// terminal): the readable output writes control characters out; JSON escapes them itself.
    @Test func controlCharactersInNamesAreWrittenOut() async throws {
        let name = "bad\nname\u{1B}[31m.png"
        try directory.write("odd/" + name, PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        #expect(try await preload(["pack", "create", "odd", "--output", "odd.pak"]).status == 0)
        let list = try await preload(["pack", "list", "odd.pak"])
        #expect(list.stdout.contains("\tbad\\nname\\u{1B}[31m.png\n"), "\(list.stdout)")
        #expect(!list.stdout.contains("\u{1B}") && list.stdout.split(separator: "\n").count == 2)
        let load = try await preload(["odd", "--verbose"])
        #expect(load.status == 0 && load.stdout.contains("odd/bad\\nname\\u{1B}[31m.png  2x2 rgba8"), "\(load.stdout)")
        #expect(!load.stdout.contains("\u{1B}"))
        let json = try JSONSerialization.jsonObject(with: Data(try await preload(["odd", "--json"]).stdout.utf8)) as? [String: Any]
        let path = ((json?["assets"] as? [[String: Any]])?.first?["path"] as? String) ?? ""
        #expect(path.hasSuffix("/" + name) || path == "odd/" + name, "\(path)")
    }
}
