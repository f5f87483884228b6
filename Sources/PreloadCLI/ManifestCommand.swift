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

    func run() throws {
        let read: AssetManifest
        do {
            read = try AssetManifest(contentsOf: manifest)
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        let problems = read.problems(registry: try PluginRegistry([PNGLoader(), AtlasLoader(), PackLoader()]))
        for problem in problems { printError(problem) }
        guard problems.isEmpty else { throw ExitCode(1) }
        let entries = read.groups.reduce(0) { $0 + $1.entries.count }
        print("\(manifest): \(read.groups.count) groups, \(entries) entries, no problems")
    }
}
