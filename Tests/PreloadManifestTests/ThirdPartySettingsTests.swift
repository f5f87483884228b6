import Foundation
import Preload
import PreloadManifest
import PreloadTestSupport
import Testing

/// A plugin written outside the package, with the public API alone, gets its settings from a
/// manifest entry's `"options"` and from command-line assignments (`--set KEY.NAME=VALUE`, what
/// the `preload` command reads with ``PluginSettingsReaders``), though neither PreloadManifest
/// nor the command knows it: it registers its reader as a ``ConfigurablePlugin``.
@Suite struct ThirdPartySettingsTests {
    /// The plugin's settings: a text file shouted (upper case), some times over.
    struct ShoutSettings: AssetOptionKey, Hashable {
        static let defaultValue = ShoutSettings()
        var uppercases = false
        var repeats = 1
    }

    /// `"shout": {"uppercase": true, "repeats": 3}`.
    struct ShoutSettingsReader: PluginSettingsReader {
        var key: String { "shout" }
        func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
            if let upper = try values.bool("uppercase") { options[ShoutSettings.self].uppercases = upper }
            if let repeats = try values.int("repeats", in: 1...10) { options[ShoutSettings.self].repeats = repeats }
        }
    }

    struct ShoutLoader: ConfigurablePlugin {
        let identifier = "shout"
        let assetKind = AssetKind(rawValue: "text")
        let fileExtensions: Set<String> = ["shout"]
        var settingsReader: any PluginSettingsReader { ShoutSettingsReader() }
        func load(_ context: LoadContext) throws -> any Asset {
            let settings = context.request.options[ShoutSettings.self]
            let text = String(decoding: try context.readContents().array, as: UTF8.self)
            return DataAsset(bytes: Array(String(repeating: settings.uppercases ? text.uppercased() : text, count: settings.repeats).utf8))
        }
    }

    let directory: TemporaryDirectory
    let registry: PluginRegistry

    init() throws {
        directory = try TemporaryDirectory("third-party-settings")
        try directory.write("hi.shout", text: "hi")
        registry = try PluginRegistry([ShoutLoader()])
    }

    func manifest(_ options: String) throws -> String {
        try directory.write(
            "levels.json", text: #"{"groups": {"a": {"assets": [{"path": "hi.shout", "name": "hi", "options": {"shout": \#(options)}}]}}}"#)
    }

    @Test func aManifestEntryAndTheCommandLineSetTheSameSettings() async throws {
        let read = try AssetManifest(contentsOf: try manifest(#"{"uppercase": true, "repeats": 3}"#), registry: registry)
        let request = try #require(try read.requests(for: ["a"]).first)
        let expected = ShoutSettings(uppercases: true, repeats: 3)
        #expect(request.options[ShoutSettings.self] == expected)

        var commandLine = AssetOptions()
        try PluginSettingsReaders(registry: registry).read(assignments: ["shout.uppercase=true", "shout.repeats=3"], into: &commandLine)
        #expect(commandLine == request.options)

        let coordinator = PreloadCoordinator(registry: registry)
        let report = try await coordinator.preload([request])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "hi", as: DataAsset.self).map { String(decoding: $0.bytes.array, as: UTF8.self) } == "HIHIHI")
    }

    @Test(arguments: [
        (#"{"repeats": 11}"#, ["shout.repeats=11"], "'shout': 'repeats' must be a whole number from 1 to 10"),
        (#"{"uppercase": "yes"}"#, ["shout.uppercase=yes"], "'shout': 'uppercase' must be true or false"),
        (#"{"loud": true}"#, ["shout.loud=true"], "'shout': unknown option 'loud'"),
    ])
    func badValuesAndUnknownNamesFailAlikeInBoth(_ json: String, _ assignments: [String], _ expected: String) throws {
        let error = try #require(throws: ManifestError.self) { try AssetManifest(contentsOf: try manifest(json), registry: registry) }
        #expect(error.problem == "'options': " + expected)
        var options = AssetOptions()
        let problem = try #require(throws: PluginSettingsProblem.self) {
            try PluginSettingsReaders(registry: registry).read(assignments: assignments, into: &options)
        }
        #expect(problem.message == expected)
    }

    @Test func aKeyNoRegisteredPluginReadsIsNamedWithTheKnownOnes() throws {
        let error = try #require(throws: ManifestError.self) {
            try AssetManifest(contentsOf: try manifest(#"{"repeats": 2}"#), registry: PluginRegistry())
        }
        #expect(error.problem == "no plugin's options are called 'shout' (known: )")
        var options = AssetOptions()
        let problem = try #require(throws: PluginSettingsProblem.self) {
            try PluginSettingsReaders(registry: registry).read(assignments: ["shoot.repeats=2"], into: &options)
        }
        #expect(problem.message == "no plugin's options are called 'shoot' (known: shout)")
    }

    /// A reader written against the former names (`ManifestOptionReader`, `ManifestOptionValues`),
    /// given as `optionReaders`, still reads for one release.
    @available(*, deprecated)
    struct FormerReader: ManifestOptionReader {
        var key: String { "shout" }
        func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws {
            if let repeats = try values.int("repeats", in: 1...10) { options[ShoutSettings.self].repeats = repeats }
        }
    }

    @available(*, deprecated)
    @Test func aReaderWrittenForTheFormerNamesStillReads() throws {
        let read = try AssetManifest(contentsOf: try manifest(#"{"repeats": 2}"#), optionReaders: ManifestOptionReaders.bundled + [FormerReader()])
        #expect(try read.requests(for: ["a"]).first?.options[ShoutSettings.self].repeats == 2)
    }
}
