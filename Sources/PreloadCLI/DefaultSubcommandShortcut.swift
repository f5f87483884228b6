import ArgumentParser

/// `preload PATH...`, the default subcommand's command line, parsed by the argument parser as
/// `load` alone rather than through the whole command: the parser checks for a subcommand's
/// name, help and `--version` among the root's, and finds the default subcommand, only by first
/// building the root and every subcommand, their configurations, and each command's arguments,
/// in a binary where every first dynamic cast of a type scans all its conformance records
/// (docs/benchmarks.md, "Issue 50: start-up, round 3").
///
/// The shortcut is taken only when the root would go to the default subcommand too, with
/// nothing of the root's own asked for: the first argument names no subcommand (the parser
/// looks at the first argument alone), and `load` parses the line into itself. Anything else
/// (help, `--version`, `--generate-completion-script`, a usage error) gets no command from it,
/// and the whole command then parses the line as it always did: every help, error and
/// completion script is the parser's own, word for word.
enum DefaultSubcommandShortcut {
    /// The `load` command `arguments` (the command line after the program's name) parse into,
    /// when the root would run its default subcommand with them; `nil` when the whole command
    /// must parse them.
    static func command(for arguments: [String], subcommands: [any ParsableCommand.Type]) async -> LoadCommand? {
        if let first = arguments.first, names(of: subcommands).contains(first) { return nil }
        return try? await LoadCommand.asyncParseAsRoot(arguments) as? LoadCommand
    }

    /// The words that select a subcommand: the names and aliases of `subcommands`, and the
    /// parser's own `help`.
    static func names(of subcommands: [any ParsableCommand.Type]) -> [String] {
        ["help"] + subcommands.flatMap { [$0.configuration.commandName].compactMap { $0 } + $0.configuration.aliases }
    }
}
