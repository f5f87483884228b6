import Preload
import PreloadTestSupport
import Testing

@Suite struct PluginRegistryTests {
    struct Stub: LoaderPlugin {
        var identifier: String
        var fileExtensions: Set<String>
        var assetKind: AssetKind { .data }
        func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: []) }
    }

    @Test func claimsByExtensionCaseInsensitively() throws {
        let registry = try PluginRegistry([TextLoader(), Stub(identifier: "img", fileExtensions: ["PNG", "bmp"])])
        #expect(registry.plugin(forExtensionOf: "a/b/c.TXT")?.identifier == "text")
        #expect(registry.plugin(forExtensionOf: "x.png")?.identifier == "img")
        #expect(registry.plugin(forExtensionOf: "dir.png/file") == nil)
        #expect(registry.plugin(forExtensionOf: ".png") == nil, "a dot file has no extension")
        #expect(registry.plugin(forExtensionOf: "noextension") == nil)
    }

    @Test func duplicateClaimsAreRefusedByDefault() throws {
        var registry = try PluginRegistry([TextLoader()])
        #expect {
            try registry.register(Stub(identifier: "other", fileExtensions: ["md", "txt"]))
        } throws: { error in
            (error as? PluginRegistry.RegistrationError)?.description
                == "plugin 'other' claims .txt, already claimed by 'text'"
        }
        #expect(throws: PluginRegistry.RegistrationError.self) {
            try registry.register(Stub(identifier: "text", fileExtensions: ["zzz"]))
        }
        #expect(registry.all.count == 1, "a refused registration changes nothing")
        #expect(registry.plugin(forExtensionOf: "a.md") == nil)
    }

    @Test func replaceTakesOverContestedExtensionsOnly() throws {
        var registry = try PluginRegistry([TextLoader(), Stub(identifier: "md", fileExtensions: ["md"])])
        try registry.register(Stub(identifier: "better", fileExtensions: ["txt", "rst"]), onConflict: .replace)
        #expect(registry.plugin(forExtensionOf: "a.txt")?.identifier == "better")
        #expect(registry.plugin(forExtensionOf: "a.md")?.identifier == "md")
        #expect(registry.plugin(identifier: "text") != nil, "still reachable by name")
        try registry.register(Stub(identifier: "md", fileExtensions: ["markdown"]), onConflict: .replace)
        #expect(registry.plugin(forExtensionOf: "a.md") == nil, "the replaced plugin's claims went with it")
        #expect(registry.plugin(forExtensionOf: "a.markdown")?.identifier == "md")
    }

    @Test func keepExistingGivesTheNewcomerOnlyWhatIsFree() throws {
        var registry = try PluginRegistry([TextLoader()])
        try registry.register(Stub(identifier: "late", fileExtensions: ["txt", "log"]), onConflict: .keepExisting)
        #expect(registry.plugin(forExtensionOf: "a.txt")?.identifier == "text")
        #expect(registry.plugin(forExtensionOf: "a.log")?.identifier == "late")
    }

    @Test func contentSniffingClaimsFilesWithoutAKnownExtension() throws {
        let directory = try TemporaryDirectory()
        let sniffed = try directory.write("notes.dat", text: "TEXT:hello")
        let unknown = try directory.write("blob.dat", text: "BLOB")
        let registry = try PluginRegistry([Stub(identifier: "img", fileExtensions: ["png"]), TextLoader()])
        #expect(registry.claimant(of: sniffed)?.identifier == "text")
        #expect(registry.claimant(of: unknown) == nil)
    }
}
