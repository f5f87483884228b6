import ArgumentParser
import PreloadBaked
import PreloadPack

/// `preload`: load assets (the default), or work on atlases (`preload atlas ...`).
@main
struct PreloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preload",
        abstract: "Preload game assets: decode every file a loader plugin claims and report the result.",
        discussion: """
            `preload PATH...` loads (the `load` subcommand is the default); `preload atlas pack` \
            and `preload atlas check` work on texture atlases; `preload pack create`, `list` and \
            `extract` work on data packs; `preload bake` writes a baked pack and `preload bake check` \
            checks one against its sources; `preload export PATHS --to DIR` writes every asset as its \
            kind exports it (textures and atlas pages as PNG, or KTX2 with --ktx2; sounds and music as \
            WAV); `preload https://...` loads remote files through the download cache (`--cache DIR`), \
            `preload catalog DIR --url BASE -o FILE` lists a folder a server publishes and \
            `preload fetch CATALOG --group G` brings a group up to date, `preload patch OLD NEW -o DIR` \
            publishes the deltas from a shipped baked pack to its new version; `preload --manifest FILE --group NAME` loads a manifest's \
            groups and `preload manifest check FILE` validates one. To load a folder called `atlas` or `pack`, write \
            `preload load atlas` or `preload ./atlas` (likewise `manifest`); a subcommand's name alone, \
            when a file or folder of that name is in the current directory, is a usage error saying so.

            Loader plugins, and the file extensions each claims (a file is claimed by its content \
            too; "by content": only by it; "when named": only the files a manifest entry's "plugin" names it for): \
            \(HelpRequest.isAsked ? StandardPlugins.listing : "(see --help)"). Their settings: --set (`preload load --help`).
            """,
        version: version,
        subcommands: subcommands,
        defaultSubcommand: LoadCommand.self)

    /// The subcommands, `load` (the default) first.
    static let subcommands: [any ParsableCommand.Type] = [
        LoadCommand.self, AtlasCommand.self, PackCommand.self, BakeCommand.self, ExportCommand.self, ManifestCommand.self, FetchCommand.self,
        CatalogCommand.self, PatchCommand.self,
    ]

    /// What `preload --version` prints: Preload has no release yet, so the formats it writes
    /// are what tells one build's files from another's.
    static let version = "preload (unreleased) writing baked packs version \(BakedFormat.version) and .pak version \(PackFormat.version)"

    /// Runs the command; `preload help NOPE` is a usage error rather than the root's help.
    /// `preload PATH...` is parsed as `load` alone (``DefaultSubcommandShortcut``), and runs and
    /// fails as the whole command runs it.
    static func main() async {
        CommandAllocator.configure()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = HelpTopic.problem(in: arguments, root: Self.self) {
            exit(withError: ValidationError(problem))
        }
        DebugBuildNotice.watch()
        guard let load = await DefaultSubcommandShortcut.command(for: arguments, subcommands: subcommands) else { return await main(nil) }
        do {
            try await load.run()
        } catch {
            exit(withError: error)
        }
    }
}
