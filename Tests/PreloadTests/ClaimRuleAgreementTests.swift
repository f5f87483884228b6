import Preload
import PreloadTestSupport
import Testing

/// The claim rule exists once (`PluginRegistry`): a folder walk, a file requested by name and
/// `PluginRegistry.claimant(of:)` give every file to the same plugin, content over extension
/// included. A second copy of the rule that forgot a case would fail here.
@Suite struct ClaimRuleAgreementTests {
    /// A second plugin that sniffs content (beside `TextLoader`, which sniffs `TEXT:`), so that
    /// content can overrule an extension.
    struct BlobLoader: LoaderPlugin {
        var identifier: String { "blob" }
        var fileExtensions: Set<String> { ["blob"] }
        var assetKind: AssetKind { .data }
        var headerLength: Int { 4 }
        func matchesSignature(_ header: [UInt8]) -> Bool { header.elementsEqual("BLOB".utf8) }
        func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: try context.readContents().array) }
    }

    /// Each file's name, content, and the plugin the rule gives it (`nil`: none).
    static let files: [(name: String, content: String, plugin: String?)] = [
        ("hello.txt", "TEXT:hello", "text"),  // extension and content agree
        ("text-inside.blob", "TEXT:not a blob", "text"),  // content overrules the extension
        ("blob-inside.txt", "BLOB and more", "blob"),  // the same, the other way round
        ("sniffed.dat", "BLOB", "blob"),  // no extension claims it: content decides
        ("unknown.dat", "nothing here", nil),  // nobody claims it
    ]

    @Test func aFolderWalkANamedFileAndClaimantAgree() async throws {
        let directory = try TemporaryDirectory()
        for file in Self.files { _ = try directory.write(file.name, text: file.content) }
        let registry = try PluginRegistry([TextLoader(), BlobLoader()])

        let walked = try await PreloadCoordinator(registry: registry).preload([.folder(directory.path)])
        #expect(walked.skippedPaths == [directory.file("unknown.dat")], "the file nobody claims is skipped")
        for file in Self.files {
            let path = directory.file(file.name)
            #expect(registry.claimant(of: path)?.identifier == file.plugin, "claimant(of:) for \(file.name)")
            let named = try await PreloadCoordinator(registry: registry).preload([AssetRequest(path: path)])
            let byName = try #require(named.results.first)
            guard let plugin = file.plugin else {
                #expect(byName.outcome.error?.category == .noLoader, "\(file.name) requested by name fails")
                continue
            }
            let inFolder = try #require(walked.results.first { $0.request.path == path }, "\(file.name) found in the folder")
            #expect(byName.plugin == plugin, "\(file.name) requested by name")
            #expect(inFolder.plugin == plugin, "\(file.name) found in a folder")
            #expect(inFolder.outcome.isLoaded && byName.outcome.isLoaded, "\(file.name) loads")
            #expect(inFolder.warnings.map(\.code) == byName.warnings.map(\.code), "\(file.name): the same warnings either way")
        }
        let overruled = try await PreloadCoordinator(registry: registry).preload([AssetRequest(path: directory.file("text-inside.blob"))])
        #expect(overruled.results.first?.warnings.map(\.code) == [.contentNotExtension])
    }
}
