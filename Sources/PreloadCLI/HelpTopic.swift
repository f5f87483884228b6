import ArgumentParser

/// `preload help TOPIC...`: the argument parser prints the root help (and exits 0) for a topic
/// that names no subcommand; this says so instead, as a usage error.
enum HelpTopic {
    /// The problem with `arguments` (the command line after the program's name) when they ask
    /// for help on a subcommand that does not exist; `nil` otherwise.
    static func problem(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        guard arguments.first == "help" else { return nil }
        var command = root
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard let next = subcommands.first(where: { $0.configuration.commandName == name }) else {
                let names = subcommands.compactMap { $0.configuration.commandName }.joined(separator: ", ")
                return "no help on '\(name)': \(command.configuration.commandName ?? "it") has the subcommands \(names)"
            }
            command = next
        }
        return nil
    }
}
