import PreloadTestSupport
import Testing

@testable import Preload

/// The extension half of the claim rule, as ``PluginRegistry/index(forExtensionOf:)`` finds it
/// in its table of packed extensions (``PackedExtensionSlots``): every claimed extension, in
/// any case, finds its own plugin, however many are claimed and wherever they land in the
/// table; an extension nobody claims, or a path without one, finds none.
@Suite struct ExtensionClaimTests {
    typealias Stub = PluginRegistryTests.Stub

    /// Extensions of one to twelve bytes (eight is the longest packed), many sharing their
    /// first or last bytes, so that neighbours in the table differ by a byte.
    static let claimed: [String] = (0..<120).map { number in
        let length = 1 + number % 12
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789_-")
        return String((0..<length).map { alphabet[(number * 7 + $0 * (number % 5 + 1)) % alphabet.count] })
    }

    static func mixedCase(_ text: String) -> String {
        String(text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
    }

    @Test func everyClaimedExtensionFindsItsOwnPluginInAnyCase() throws {
        let extensions = Array(Set(Self.claimed)).sorted()
        let plugins = stride(from: 0, to: extensions.count, by: 3).map { first in
            Stub(identifier: "p\(first)", fileExtensions: Set(extensions[first..<min(first + 3, extensions.count)]))
        }
        let registry = try PluginRegistry(plugins)
        for (position, fileExtension) in extensions.enumerated() {
            let owner = "p\(position / 3 * 3)"
            for path in ["a/b.c/file.\(fileExtension)", "x.\(fileExtension.uppercased())", "/d/e.\(Self.mixedCase(fileExtension))"] {
                #expect(registry.plugin(forExtensionOf: path)?.identifier == owner, "\(path)")
            }
            // One byte more or less, or another last byte, is another extension.
            for other in [fileExtension + "q", String(fileExtension.dropLast()), String(fileExtension.dropLast()) + "~"] {
                if let claimant = registry.plugin(forExtensionOf: "f.\(other)") {
                    #expect(extensions.contains(other) && claimant.identifier == "p\(extensions.firstIndex(of: other)! / 3 * 3)", "\(other)")
                }
            }
        }
    }

    @Test func pathsWithoutAnExtensionFindNone() throws {
        let registry = try PluginRegistry([Stub(identifier: "img", fileExtensions: ["png", "longextension", "tëx"])])
        for path in ["png", ".png", "a/.png", "dir.png/file", "dir.png/", "file.", "file.png.", "a_long_name_without_an_extension", ""] {
            #expect(registry.plugin(forExtensionOf: path) == nil, "\(path)")
        }
        #expect(registry.plugin(forExtensionOf: "a/b.LongExtension")?.identifier == "img", "longer than a packed word")
        #expect(registry.plugin(forExtensionOf: "a/b.TËX")?.identifier == "img", "not ASCII: Unicode's lowercasing")
        #expect(registry.plugin(forExtensionOf: "a/b.pn\u{0}") == nil)
        #expect(PluginRegistry().plugin(forExtensionOf: "a.png") == nil, "an empty registry claims nothing")
    }

    /// Files of two plugins, in any case and without extension, in one folder, in turn: each goes
    /// to its own (the claim is made per file, nothing of the file before carried over).
    @Test func twoPluginsFilesInterleavedInOneFolderEachGoToTheirOwn() async throws {
        let directory = try TemporaryDirectory()
        let names = (0..<60).map { index in
            switch index % 4 {
            case 0: "\(index).txt"
            case 1: "\(index).NOTE"
            case 2: "\(index).Txt"
            default: "\(index)"
            }
        }
        let paths = try names.map { try directory.write($0, text: "plain \($0)") }
        // A plugin no file goes to comes first: the records name each asset's plugin by its index.
        let coordinator = try PreloadCoordinator(
            plugins: [Stub(identifier: "unused", fileExtensions: ["zzz"]), TextLoader(), NoteLoader()], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        #expect(report.results.count == names.count)
        for (name, result) in zip(names, report.results) {
            #expect(result.request.path.hasSuffix("/" + name))
            let expected: String? =
                name.lowercased().hasSuffix(".txt") ? "text" : name.hasSuffix(".NOTE") ? "note-with-a-long-identifier" : nil
            if let expected {
                #expect(result.plugin == expected, "\(name)")
            } else {
                #expect(!result.outcome.isLoaded, "\(name): no plugin claims a file without an extension")
            }
        }
        #expect(report.results.outcomeCounts.loaded == 45)
        #expect(report.results.contains(plugin: "text") && report.results.contains(plugin: "note-with-a-long-identifier"))
        #expect(!report.results.contains(plugin: "unused"), "a registered plugin no asset has")
    }
}
