import Foundation
import Preload
import PreloadTestSupport
import Testing

@Suite struct DependencyTests {
    let directory: TemporaryDirectory
    let text = TextLoader()
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory()
        coordinator = try PreloadCoordinator(
            plugins: [text, BundleLoader(order: text.order)], configuration: .init(maxConcurrentLoads: 2))
    }

    @Test func dependenciesLoadFirstAndTheirResultsAreAvailable() async throws {
        try directory.write("a.txt", text: "A")
        try directory.write("b.txt", text: "B")
        try directory.write("c.txt", text: "C")
        let bundle = try directory.write("all.bundle", text: "a.txt\nb.txt\nc.txt")
        let report = try await coordinator.start([AssetRequest(path: bundle, name: "all")]).finished()
        #expect(report.everythingLoaded)
        #expect(coordinator.assets.asset(named: "all", as: TextAsset.self)?.text == "A+B+C")
        #expect(text.order.all.last == bundle, "the bundle ran after every part: \(text.order.all)")
        #expect(report.allResults.filter(\.isDependency).count == 3)
        #expect(report.results.first?.request.name == "all")
    }

    /// A dependency of another type than the plugin asks for fails its dependent by both names,
    /// in words (it said "is a data, not TextAsset").
    @Test func aDependencyOfTheWrongTypeSaysWhatItLoadedAs() async throws {
        struct RawLoader: LoaderPlugin {
            var identifier: String { "raw" }
            var assetKind: AssetKind { .data }
            var fileExtensions: Set<String> { ["raw"] }
            func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: try context.readContents()) }
        }
        let coordinator = try PreloadCoordinator(plugins: [text, BundleLoader(order: text.order), RawLoader()])
        let part = try directory.write("x.raw", text: "X")
        let bundle = try directory.write("all.bundle", text: "x.raw")
        let report = try await coordinator.start([AssetRequest(path: bundle)]).finished()
        let error = try #require(report.results.first?.outcome.error)
        #expect(error.path == bundle)
        #expect(error.reason == "dependency \(part) loaded as a data asset (DataAsset), not the TextAsset this file needs", "\(error)")
    }

    @Test func aSharedDependencyLoadsOnce() async throws {
        try directory.write("shared.txt", text: "S")
        try directory.write("x.txt", text: "X")
        let one = try directory.write("one.bundle", text: "shared.txt\nx.txt")
        let two = try directory.write("two.bundle", text: "shared.txt")
        let report = try await coordinator.start([AssetRequest(path: one), AssetRequest(path: two)]).finished()
        #expect(report.everythingLoaded)
        #expect(text.loads.count == 2, "shared.txt and x.txt, each once")
        #expect(coordinator.assets.asset(atPath: two) as? TextAsset == TextAsset(text: "S"))
    }

    @Test func aFailedDependencyFailsTheDependentWithItsCause() async throws {
        try directory.write("fine.txt", text: "ok")
        let broken = try directory.write("broken.txt", text: "FAIL")
        let bundle = try directory.write("b.bundle", text: "fine.txt\nbroken.txt")
        let report = try await coordinator.start([AssetRequest(path: bundle)]).finished()
        let error = try #require(report.results.first?.outcome.error)
        #expect(error.category == .dependencyFailed)
        #expect(error.description == "\(bundle): needs \(broken), which failed: text says FAIL")
        #expect(!text.order.all.contains(bundle), "the bundle never ran")
    }

    @Test func aMissingDependencyFailsTheDependentBeforeAnythingRuns() async throws {
        let bundle = try directory.write("m.bundle", text: "ghost.txt")
        let report = try await coordinator.start([AssetRequest(path: bundle)]).finished()
        let error = try #require(report.results.first?.outcome.error)
        #expect(error.category == .dependencyFailed)
        #expect(error.reason.contains("ghost.txt") && error.reason.contains("no such file"))
    }

    @Test func cyclesAreRefused() async throws {
        let first = try directory.write("first.bundle", text: "second.bundle")
        try directory.write("second.bundle", text: "first.bundle")
        let report = try await coordinator.start([AssetRequest(path: first)]).finished()
        let error = try #require(report.results.first?.outcome.error)
        #expect(error.category == .dependencyFailed || error.category == .dependencyCycle)
        #expect(report.errors.contains { $0.category == .dependencyCycle })
        #expect(text.order.all.isEmpty)
    }
}

/// Loads a folder `NAME.texts/` as the joined contents of its files: a plugin that claims
/// directories, as sprite-folder atlases do.
struct FolderLoader: LoaderPlugin {
    var identifier: String { "texts" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["texts"] }
    var acceptsDirectories: Bool { true }

    func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        try FileManager.default.contentsOfDirectory(atPath: request.path).sorted().map {
            AssetRequest(path: request.path + "/" + $0)
        }
    }

    func load(_ context: LoadContext) throws -> any Asset {
        let parts = try dependencies(of: context.request)
        return TextAsset(text: try parts.map { try context.dependency($0, as: TextAsset.self).text }.joined())
    }
}

@Suite struct DirectoryClaimTests {
    @Test func aPluginThatAcceptsDirectoriesLoadsAFolder() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("story.texts/1.txt", text: "once ")
        try directory.write("story.texts/2.txt", text: "upon")
        try directory.write("plain.txt/inside.txt", text: "x")  // a folder named like a text file
        let coordinator = try PreloadCoordinator(plugins: [TextLoader(), FolderLoader()])
        let report = try await coordinator.start([
            AssetRequest(path: directory.file("story.texts"), name: "story"),
            AssetRequest(path: directory.file("plain.txt")),
        ]).finished()
        #expect(coordinator.assets.asset(named: "story", as: TextAsset.self)?.text == "once upon")
        let refused = try #require(report.results.last?.outcome.error)
        #expect(refused.category == .unreadable && refused.reason.hasPrefix("is a folder no loader plugin loads as one asset"))
    }
}
