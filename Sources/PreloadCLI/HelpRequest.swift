/// Whether the command line asks for help text: the parts of the help that cost a look at every
/// plugin (the root's list of plugins, `--set`'s keys) are made only then. The argument parser
/// makes a command's configuration and its arguments' help at every start, help or not.
enum HelpRequest {
    /// The words that make the argument parser print help (`--help`, `-h`, `-help`, the `help`
    /// subcommand) or describe the whole command (`--experimental-dump-help`).
    static let words = ["--help", "-h", "-help", "help", "--experimental-dump-help"]

    /// Whether this process's command line holds one of ``words``.
    static var isAsked: Bool {
        CommandLine.arguments.dropFirst().contains(where: words.contains)
    }
}
