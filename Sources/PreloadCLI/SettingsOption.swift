import ArgumentParser
import Preload
import PreloadPNG

/// `--set KEY.NAME=VALUE` (repeatable): any registered plugin's settings, under the keys and
/// names a manifest entry's `"options"` use (`--set png.alpha=premultiplied --set atlas.padding=2`),
/// read by the plugins' own readers (``PluginSettingsReaders``): the command knows no plugin's
/// settings, and says of an unknown key or a bad value what a manifest says.
struct SettingsOption: ParsableArguments {
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A plugin's setting, named as in a manifest's \"options\": png.alpha=premultiplied, atlas.padding=2, audio.kind=music (repeatable). Applies to every file requested; keys: \(Self.keys.joined(separator: ", ")).",
            valueName: "KEY.NAME=VALUE"))
    var assignments: [String] = []

    /// The keys the standard plugins' settings go under, for the option's help; asked only when
    /// help is asked for: the help is made at every start, and finding the plugins' readers (a
    /// dynamic cast of each plugin) cost every run about 0.2 ms for a text it did not print.
    static var keys: [String] {
        let asksForHelp = CommandLine.arguments.dropFirst().contains { ["--help", "-h", "help", "--experimental-dump-help"].contains($0) }
        guard asksForHelp else { return ["(see --help)"] }
        return PluginSettingsReaders(StandardPlugins.plugins().compactMap { ($0 as? any ConfigurablePlugin)?.settingsReader }).keys
    }

    func validate() throws {
        guard !assignments.isEmpty else { return }
        var scratch = AssetOptions()
        try Self.read(assignments, into: &scratch, readers: PluginSettingsReaders(registry: try StandardPlugins.registry(png: PNGLoader())))
    }

    /// `requests` with the settings given set in each one's options, over what each has (a
    /// manifest entry's own `"options"`: the command line's members win). `flags` are settings
    /// spelled by the subcommand's own flags (`--premultiply` is `png.alpha=premultiplied`): each
    /// is set first where `--set` names its key, so that `--set png.maxWidth=64 --premultiply`
    /// keeps both.
    func apply(to requests: [AssetRequest], registry: PluginRegistry, flags: [String] = []) throws -> [AssetRequest] {
        guard !assignments.isEmpty else { return requests }
        let keys = Set(assignments.map { $0.prefix { $0 != "." } })
        let all = flags.filter { keys.contains($0.prefix { $0 != "." }) } + assignments
        let readers = PluginSettingsReaders(registry: registry)
        return try requests.map { request in
            var set = request
            try Self.read(all, into: &set.options, readers: readers)
            return set
        }
    }

    private static func read(_ assignments: [String], into options: inout AssetOptions, readers: PluginSettingsReaders) throws {
        do {
            try readers.read(assignments: assignments, into: &options)
        } catch {
            throw ValidationError("--set: \(error.message)")
        }
    }
}
