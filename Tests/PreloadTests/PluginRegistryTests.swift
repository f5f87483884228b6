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

    /// A plugin whose mark may lie anywhere: `#MARK` on a line of its own, after any number of
    /// `#` lines; undecided while the bytes shown end among `#` lines.
    struct MarkedLines: LoaderPlugin {
        var identifier: String { "marked" }
        var fileExtensions: Set<String> { [] }
        var assetKind: AssetKind { .data }
        var headerLength: Int { 16 }
        var signatureReach: Int { 256 << 10 }
        /// The prefix lengths it was shown.
        let shown = Recorder<Int>()
        func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch {
            shown.append(prefix.count)
            for line in prefix.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                if line.elementsEqual("#MARK".utf8) { return .matches }
                guard line.first == UInt8(ascii: "#") else { return .differs }
            }
            return .undecided
        }
        func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: []) }
    }

    /// A plugin that cannot tell from its header is shown prefixes four times longer, up to its
    /// reach, and no further: the claim reads on only while it must.
    @Test func anUndecidedSignatureReadsOnWithinItsReach() throws {
        let directory = try TemporaryDirectory()
        let padding = String(repeating: "#pad\n", count: 20_000)  // 100,000 bytes
        let far = try directory.write("far.dat", text: padding + "#MARK\nrest")
        let beyond = try directory.write("beyond.dat", text: padding + padding + padding + "#MARK\n")
        let other = try directory.write("other.dat", text: "plain text, not marked" + padding)
        let plugin = MarkedLines()
        let registry = try PluginRegistry([plugin])
        #expect(registry.claimant(of: far)?.identifier == "marked")
        #expect(plugin.shown.all == [16, 64 << 10, padding.utf8.count + 10], "the whole file, shorter than the next step")
        #expect(registry.claimant(of: beyond) == nil, "its mark lies past the reach")
        #expect(plugin.shown.all.suffix(3) == [16, 64 << 10, 256 << 10])
        let shown = plugin.shown.all.count
        #expect(registry.claimant(of: other) == nil)
        #expect(Array(plugin.shown.all.dropFirst(shown)) == [16], "told from its header: nothing more read")
    }
}
