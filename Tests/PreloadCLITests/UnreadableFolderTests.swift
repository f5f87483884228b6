import Foundation
import PreloadTestSupport
import Testing

/// A folder the command cannot list fails by its path in every command that walks folders
/// (`preload`, `bake`, `export`, `pack create`): a bake must not ship a level with files missing.
/// The folder is `chmod 000`; as root the command runs without root's read override
/// (`CommandRunner.preloadBoundByPermissions`), so each test fails if the folder is read.
@Suite struct UnreadableFolderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("level/hero.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        try directory.write("level/locked/boss.png", PNGFixture.rgba(width: 2, height: 2, pixels: PNGFixture.noise(width: 2, height: 2)))
        #expect(chmod(directory.file("level/locked"), 0) == 0)
    }

    /// Runs `arguments`, then gives the folder its permissions back (a user could not remove it).
    private func run(_ arguments: [String]) async throws -> CommandRunner.Run {
        defer { chmod(directory.file("level/locked"), 0o755) }
        return try await CommandRunner.preloadBoundByPermissions(arguments, in: directory.path)
    }

    @Test func preloadFailsTheFolderByItsPath() async throws {
        let run = try await run(["level", "--json"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let assets = try #require(run.json?["assets"] as? [[String: Any]], "\(run.stdout)")
        let locked = try #require(assets.first { $0["path"] as? String == "level/locked" }, "\(assets)")
        #expect(locked["status"] as? String == "failed" && locked["errorCategory"] as? String == "unreadable")
        #expect((locked["error"] as? String)?.contains("Permission denied") == true, "\(locked)")
        #expect(assets.contains { $0["path"] as? String == "level/hero.png" && $0["status"] as? String == "loaded" })
    }

    @Test func bakeWritesNothing() async throws {
        let run = try await run(["bake", "level", "-o", "level.bake"])
        #expect(run.status == 1 && run.stderr.contains("level/locked: cannot be read (Permission denied)"), "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("level.bake")))
    }

    @Test func exportFailsTheFolder() async throws {
        let run = try await run(["export", "level", "--to", "out"])
        #expect(run.status == 1 && run.stderr.contains("level/locked: cannot be read (Permission denied)"), "\(run.stdout)\(run.stderr)")
    }

    @Test func packCreateWritesNothing() async throws {
        let run = try await run(["pack", "create", "level", "-o", "level.pak"])
        #expect(run.status == 1 && run.stderr.contains("level/locked: cannot be read (Permission denied)"), "\(run.stdout)\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("level.pak")))
    }
}
