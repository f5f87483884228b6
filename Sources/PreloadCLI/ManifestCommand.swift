import ArgumentParser
import Foundation
import Preload
import PreloadAtlas
import PreloadManifest
import PreloadPNG
import PreloadPack

/// `preload manifest check FILE`.
struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest", abstract: "Work on asset manifests (groups of assets; see the PreloadManifest docs).",
        subcommands: [ManifestCheckCommand.self])

    /// Reached only when no subcommand is given: the help, or a usage error when `manifest` is
    /// also a file or folder here (`SubcommandNameClash`).
    func run() throws {
        try SubcommandNameClash.check(Self.configuration.commandName ?? "manifest")
        throw CleanExit.helpRequest(self)
    }
}

struct ManifestCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a manifest without decoding anything.",
        discussion: """
            Checks that the manifest reads, that every group's requirements exist and do not \
            form a cycle, and that every entry's file exists and is claimed by a plugin. Prints \
            each problem on its own line (manifest, group, entry, cause). Exit status: 0 when \
            there is none, 1 otherwise.
            """)

    @Argument(help: "The manifest to check.") var manifest: String

    @Option(help: "The web root a Phaser asset pack's URLs are relative to (default: the current directory).")
    var root: String?

    func run() throws {
        let registry = try StandardPlugins.registry(png: PNGLoader())
        let read: AssetManifest
        do {
            read = try AssetManifest(contentsOf: manifest, registry: registry, webRoot: root)
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        let problems = read.problems(registry: registry)
        for problem in problems { printError(problem) }
        let warnings = read.notices.filter(\.isWarning)
        for warning in warnings { printDiagnostic("warning", warning) }
        if let hint = PhaserRootHint.line(checking: read, root: root) { printDiagnostic("hint", hint) }
        guard problems.isEmpty else { throw ExitCode(1) }
        let entries = read.groups.reduce(0) { $0 + $1.entries.count }
        let skipped = read.notices.count - warnings.count
        var line = "\(manifest): \(read.groups.count) groups, \(entries) entries"
        if skipped > 0 { line += ", \(skipped) skipped (types no plugin loads)" }
        if !warnings.isEmpty { line += ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        print(line + ", no problems")
    }
}
