import ArgumentParser
import PreloadTestSupport
import Testing

@testable import PreloadCLI

/// `preload PATH...` is parsed as `load` alone only where the whole command would run `load` with
/// the same arguments; every other line (a subcommand, help, `--version`, a completion script, a
/// usage error) is left to the whole command, whose words `CommandLineGoldenTests` hold.
@Suite struct DefaultSubcommandShortcutTests {
    /// The words that select a subcommand are the ones the parser matches: each subcommand's name
    /// (the name the parser derives, `_commandName`), its aliases, and `help`.
    @Test func theSubcommandNamesAreTheParsersOwn() {
        let names = DefaultSubcommandShortcut.names(of: PreloadCommand.subcommands)
        #expect(names == ["help", "load", "atlas", "pack", "bake", "export", "manifest", "fetch", "catalog", "patch"])
        for subcommand in PreloadCommand.subcommands {
            let name = subcommand._commandName
            #expect(names.contains(name))
            for alias in subcommand.configuration.aliases { #expect(names.contains(alias)) }
        }
        let configured = PreloadCommand.configuration.subcommands.map { ObjectIdentifier($0) }
        #expect(configured == PreloadCommand.subcommands.map { ObjectIdentifier($0) })
        #expect(PreloadCommand.configuration.defaultSubcommand.map { ObjectIdentifier($0) } == ObjectIdentifier(LoadCommand.self))
    }

    @Test func aDefaultSubcommandLineIsParsedAsLoad() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 3, pixels: PNGFixture.noise(width: 4, height: 3)))
        let art = directory.file("art")
        let load = try #require(await DefaultSubcommandShortcut.command(for: [art, "--quiet", "-j", "2"], subcommands: PreloadCommand.subcommands))
        #expect(load.paths == [art] && load.quiet && load.jobs == 2)
        let terminated = try #require(await DefaultSubcommandShortcut.command(for: ["--", art], subcommands: PreloadCommand.subcommands))
        #expect(terminated.paths == [art])
        // No path: `load` runs and says what is missing, as the whole command's `load` does.
        #expect(await DefaultSubcommandShortcut.command(for: [], subcommands: PreloadCommand.subcommands)?.paths == [])
    }

    @Test(arguments: [
        ["atlas"], ["load", "art"], ["help"], ["pack", "list", "x.pak"], ["--help"], ["-h"], ["-help"], ["--version"], ["ART", "--version"],
        ["--generate-completion-script", "bash"], ["ART", "--generate-completion-script"], ["--experimental-dump-help"], ["--bogus"],
        ["ART", "--jobs", "0"], ["ART", "--quiet", "--verbose"], ["no/such/file.png"], ["---completion", "--", "--audio", "0", "0"],
    ])
    func everyOtherLineIsLeftToTheWholeCommand(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 3, pixels: PNGFixture.noise(width: 4, height: 3)))
        let line = arguments.map { $0 == "ART" ? directory.file("art") : $0 }
        #expect(await DefaultSubcommandShortcut.command(for: line, subcommands: PreloadCommand.subcommands) == nil)
    }
}
