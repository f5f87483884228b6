import ArgumentParser
import Foundation

/// A subcommand named alone (`preload atlas`) where a file or folder of that name is in the
/// current directory: the user most likely meant to load it, so the command stops with a usage
/// error saying how, rather than printing the subcommand's help and succeeding.
enum SubcommandNameClash {
    /// The message for the subcommand `name`, or `nil` when nothing called `name` is here.
    static func message(for name: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) else { return nil }
        let kind = isDirectory.boolValue ? "folder" : "file"
        return "'\(name)' is both a subcommand and a \(kind) here; to load the \(kind), write 'preload ./\(name)' "
            + "('preload \(name) --help' shows the subcommand)"
    }

    /// Prints the message for `name` and exits with 64 (a usage error) when there is a clash.
    static func check(_ name: String) throws {
        guard let message = message(for: name) else { return }
        printError(message)
        throw ExitCode.validationFailure
    }
}
