import ArgumentParser
import Preload
import PreloadPNG

/// `--set KEY.NAME=VALUE` (repeatable): any registered plugin's settings, under the keys and
/// names a manifest entry's `"options"` use (`--set png.alpha=premultiplied --set atlas.padding=2`),
/// read by the plugins' own readers (``PluginSettingsReaders``): the command knows no plugin's
/// settings, and says of an unknown key or a bad value what a manifest says.
///
/// Each command that takes it declares the option itself, `@Option(name: .customLong("set"),
/// help: SettingsOption.help) var settingAssignments: [String] = []`, and validates it first
/// (``validate()``), rather than through an `@OptionGroup`: the argument parser reflects on an
/// option group's type, decodes and casts it as a command of its own, and in the static
/// `preload` each first cast of a type scans every conformance record of the binary
/// (docs/benchmarks.md, "Issue 50: start-up, round 3").
struct SettingsOption {
    /// The option's help.
    static var help: ArgumentHelp {
        ArgumentHelp(
            "A plugin's setting, named as in a manifest's \"options\": png.alpha=premultiplied, atlas.padding=2, audio.kind=music (repeatable). Applies to every file requested; keys: \(Self.keys.joined(separator: ", ")).",
            valueName: "KEY.NAME=VALUE")
    }

    /// The `KEY.NAME=VALUE` assignments given, in order.
    var assignments: [String]

    /// The option given `assignments`.
    init(_ assignments: [String]) {
        self.assignments = assignments
    }

    /// The keys the standard plugins' settings go under, for the option's help; asked only when
    /// help is asked for: the help is made at every start, and finding the plugins' readers (a
    /// dynamic cast of each plugin) cost every run about 0.2 ms for a text it did not print.
    static var keys: [String] {
        guard HelpRequest.isAsked else { return ["(see --help)"] }
        return PluginSettingsReaders(StandardPlugins.plugins().compactMap { ($0 as? any ConfigurablePlugin)?.settingsReader }).keys
    }

    /// Checks every assignment against the standard plugins' readers: an unknown key or a bad
    /// value is a usage error, before any work.
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
