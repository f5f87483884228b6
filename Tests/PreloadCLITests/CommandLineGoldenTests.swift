import Foundation
import PreloadTestSupport
import Testing

/// What `preload` prints for its help, version, completion scripts and usage errors, byte for
/// byte as the command printed it before `preload PATH...` was parsed as `load` alone
/// (`DefaultSubcommandShortcut`): the goldens in `Tests/Golden/CommandLine` were recorded by
/// the command of 66b34d1, whose argument parser parsed every command line through the root.
/// The help is wrapped at 100 columns (`COLUMNS`), whatever the terminal.
///
/// To record them again with another build of the command (after a deliberate change):
/// `PRELOAD_RECORD_GOLDEN=/path/to/preload swift test --filter CommandLineGoldenTests`.
@Suite struct CommandLineGoldenTests {
    static let goldens = DescriptionGoldenTests.repository.appendingPathComponent("Tests/Golden/CommandLine")

    /// Each subcommand's help, as `preload SUBCOMMAND... --help` prints it.
    @Test(arguments: [
        [], ["load"], ["atlas"], ["atlas", "pack"], ["atlas", "check"], ["pack"], ["pack", "create"], ["pack", "list"], ["pack", "extract"],
        ["bake"], ["bake", "check"], ["export"], ["manifest"], ["manifest", "check"], ["fetch"], ["catalog"], ["patch"],
    ])
    func helpIsAsBefore(subcommands: [String]) async throws {
        try await compare(golden: (["help"] + subcommands).joined(separator: "-"), arguments: subcommands + ["--help"])
    }

    /// The root's own words (`help`, `--version`, completion scripts, the parser's description of
    /// the whole command) and the usage errors of a default subcommand's command line.
    @Test(arguments: [
        ("help-subcommand", ["help"]), ("help-subcommand-load", ["help", "load"]), ("help-short", ["-h"]), ("version", ["--version"]),
        ("completion-bash", ["--generate-completion-script", "bash"]), ("completion-zsh", ["--generate-completion-script", "zsh"]),
        ("completion-fish", ["--generate-completion-script", "fish"]), ("dump-help", ["--experimental-dump-help"]),
        ("error-no-arguments", []), ("error-unknown-option", ["--bogus"]), ("error-unknown-option-after-path", ["art", "--bogus"]),
        ("error-missing-value", ["art", "--jobs"]), ("error-bad-value", ["art", "--jobs", "zero"]), ("error-validation", ["art", "--jobs", "0"]),
        ("error-contradiction", ["--quiet", "art", "--verbose"]), ("error-no-such-file", ["nope.png"]),
        ("error-terminator", ["--", "atlas"]), ("version-after-path", ["art", "--version"]), ("help-after-path", ["art", "-h"]),
        ("completion-after-path", ["art", "--generate-completion-script", "bash"]), ("quiet-load", ["--quiet", "art"]),
        ("help-topic-unknown", ["help", "nope"]), ("error-bad-setting", ["art", "--set", "png.alpha=sideways"]),
        ("error-bad-setting-and-jobs", ["art", "--jobs", "0", "--set", "nope.x=1"]),
        ("bake-error-bad-setting", ["bake", "-o", "out.bake", "art", "--set", "nope.x=1"]),
        ("export-error-bad-setting", ["export", "art", "--to", "out", "--set", "png.alpha=sideways"]),
    ])
    func rootAndErrorsAreAsBefore(golden: String, arguments: [String]) async throws {
        try await compare(golden: golden, arguments: arguments)
    }

    /// Runs the command with `arguments` in a folder holding `art/hero.png`, and compares its
    /// exit status, stdout and stderr with `golden` (recording it first under
    /// `PRELOAD_RECORD_GOLDEN`).
    private func compare(golden: String, arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("art/hero.png", PNGFixture.rgba(width: 4, height: 3, pixels: PNGFixture.noise(width: 4, height: 3)))
        let environment = ["COLUMNS": "100"]
        let file = Self.goldens.appendingPathComponent("\(golden).txt")
        if let recorder = ProcessInfo.processInfo.environment["PRELOAD_RECORD_GOLDEN"] {
            let run = try await CommandRunner.run(URL(fileURLWithPath: recorder), arguments, in: directory.path, environment: environment)
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try Data(Self.text(of: run).utf8).write(to: file)
        }
        let run = try await CommandRunner.run(CommandRunner.binary("preload"), arguments, in: directory.path, environment: environment)
        let expected = try String(contentsOf: file, encoding: .utf8)
        let printed = Self.text(of: run)
        #expect(printed == expected, "\(golden) differs:\n\(DescriptionGoldenTests.firstDifference(printed, expected))")
    }

    /// A run as its golden holds it: the exit status, then stdout and stderr, each headed.
    static func text(of run: CommandRunner.Run) -> String {
        "exit status \(run.status)\n--- stdout\n\(run.stdout)--- stderr\n\(run.stderr)"
    }
}
