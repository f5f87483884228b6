import Foundation
import Preload
import PreloadConcurrency
import PreloadTestSupport
import Testing

/// Two assets of one batch given one store name (two bundles with entries of the same name, two
/// files a manifest names alike, two folders named `""`): the first requested keeps the name,
/// each later one is stored under its path with a `store-name-taken` warning naming both files,
/// and every one is found by its own path. Nothing is replaced silently.
@Suite struct StoreNameClaimTests {
    private static func text(_ asset: (any Asset)?) -> String? {
        if let data = asset as? DataAsset { return String(decoding: data.bytes.withUnsafeBytes { Array($0) }, as: UTF8.self) }
        return (asset as? TextAsset)?.text
    }

    /// What a batch stored and warned of: each result's store name, its text, its warnings'
    /// codes, and the warnings its loaded event carried.
    private struct Observed: Equatable {
        var results: [String] = []
        var eventWarnings: [String] = []
    }

    private static func load(
        _ requests: [AssetRequest], plugins: [any LoaderPlugin], options: PreloadOptions = PreloadOptions()
    ) async throws -> (Observed, PreloadReport, AssetStore) {
        let coordinator = try PreloadCoordinator(plugins: plugins)
        let events = Recorder<String>()
        let hooks = PreloadHooks(onAssetLoaded: { result in
            for warning in result.warnings { events.append("\(result.request.name): \(warning.code)") }
        })
        let report = try await coordinator.preload(requests, options: options, hooks: hooks)
        var observed = Observed()
        observed.results = report.results.map { result in
            let codes = result.warnings.map(\.code.rawValue).joined(separator: ",")
            return "\(result.request.name)=\(text(result.outcome.asset) ?? "\(result.outcome.error.map { "\($0.category)" } ?? "-")") [\(codes)]"
        }
        observed.eventWarnings = events.all.sorted()
        return (observed, report, coordinator.assets)
    }

    @Test func twoBundlesWithEntriesOfTheSameNamesKeepBothOnTheBulkPathAndOneByOne() async throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("a.lines", LinesBundleLoader.bundle([("hero", "A hero"), ("map", "A map")]))
        let b = try directory.write("b.lines", LinesBundleLoader.bundle([("hero", "B hero"), ("only-b", "B only")]))
        let bulk = try await Self.load([AssetRequest(path: a), AssetRequest(path: b)], plugins: [LinesBundleLoader()])
        let oneByOne = try await Self.load(
            try LinesBundleLoader().expand(AssetRequest(path: a)) + LinesBundleLoader().expand(AssetRequest(path: b)),
            plugins: [LinesBundleLoader()])
        for (observed, report, assets) in [bulk, oneByOne] {
            #expect(
                observed.results == [
                    "hero=A hero []", "map=A map []", "\(b)#hero=B hero [store-name-taken]", "only-b=B only []",
                ])
            #expect(observed.eventWarnings == ["\(b)#hero: store-name-taken"], "the warning reaches the asset's event")
            let warning = try #require(report.results[2].warnings.first)
            #expect(warning.message.contains("'hero'") && warning.message.contains("'\(a)#hero'") && warning.message.contains("'\(b)#hero'"))
            // Each entry is found by its own path; the name finds the first.
            #expect(Self.text(assets.asset(atPath: a + "#hero")) == "A hero")
            #expect(Self.text(assets.asset(atPath: b + "#hero")) == "B hero")
            #expect(Self.text(assets.asset(named: "hero")) == "A hero")
            #expect(Self.text(assets.asset(named: b + "#hero")) == "B hero")
            #expect(assets.names.count == 4)
        }
        #expect(bulk.0 == oneByOne.0, "the bulk path and one by one agree")
    }

    @Test func oneBundleGivingTwoEntriesOneStoreNameKeepsBoth() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("ui.lines", LinesBundleLoader.bundle([("a/hero", "A"), ("b/hero", "B"), ("b/map", "M")]))
        let plugin = LinesBundleLoader(storeName: { String($0.split(separator: "/").last!) })
        for requests in [[AssetRequest(path: bundle)], try plugin.expand(AssetRequest(path: bundle))] {
            let (observed, _, assets) = try await Self.load(requests, plugins: [plugin])
            #expect(observed.results == ["hero=A []", "\(bundle)#b/hero=B [store-name-taken]", "map=M []"])
            #expect(Self.text(assets.asset(atPath: bundle + "#a/hero")) == "A" && Self.text(assets.asset(atPath: bundle + "#b/hero")) == "B")
        }
    }

    @Test func aStrictBatchFailsTheLaterOfTwoAssetsGivenOneName() async throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("a.lines", LinesBundleLoader.bundle([("hero", "A hero")]))
        let b = try directory.write("b.lines", LinesBundleLoader.bundle([("hero", "B hero")]))
        let (observed, _, assets) = try await Self.load(
            [AssetRequest(path: a), AssetRequest(path: b)], plugins: [LinesBundleLoader()], options: PreloadOptions(isStrict: true))
        #expect(observed.results == ["hero=A hero []", "\(b)#hero=strict []"])
        #expect(Self.text(assets.asset(named: "hero")) == "A hero")
    }

    @Test func twoFilesGivenOneNameAreEachFoundByTheirPath() async throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("a.txt", text: "first")
        let b = try directory.write("b.txt", text: "second")
        let (observed, report, assets) = try await Self.load(
            [
                AssetRequest(path: a, name: "hero"), AssetRequest(path: b, name: "hero"),
                // The same file again, spelled another way: one asset, one name, not a collision.
                AssetRequest(path: directory.file("./a.txt"), name: "hero"),
            ],
            plugins: [TextLoader()])
        #expect(observed.results == ["hero=first []", "\(b)=second [store-name-taken]", "hero=first []"])
        #expect(report.results[1].warnings.first?.message.contains("'\(a)'") == true)
        #expect(Self.text(assets.asset(atPath: a)) == "first")
        #expect(Self.text(assets.asset(atPath: b)) == "second")
        #expect(Self.text(assets.asset(named: "hero")) == "first")
    }

    @Test func twoFoldersNamedAlikeKeepEveryFile() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("one/hero.txt", text: "one")
        let second = try directory.write("two/hero.txt", text: "two")
        try directory.write("two/other.txt", text: "other")
        let (observed, _, assets) = try await Self.load(
            [.folder(directory.file("one"), name: ""), .folder(directory.file("two"), name: "")], plugins: [TextLoader()])
        #expect(observed.results == ["hero.txt=one []", "\(second)=two [store-name-taken]", "other.txt=other []"])
        #expect(Self.text(assets.asset(atPath: first)) == "one")
        #expect(Self.text(assets.asset(atPath: second)) == "two")
    }

    @Test func aPathThatIsAlsoATakenNameGetsACountedName() async throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("a.txt", text: "first")
        let b = try directory.write("b.txt", text: "second")
        let c = try directory.write("c.txt", text: "third")
        let (observed, _, assets) = try await Self.load(
            [AssetRequest(path: a, name: "hero"), AssetRequest(path: b, name: c), AssetRequest(path: c, name: "hero")], plugins: [TextLoader()])
        // c's own path is b's name: c is stored as `c (2)`.
        #expect(observed.results == ["hero=first []", "\(c)=second []", "\(c) (2)=third [store-name-taken]"])
        #expect(Self.text(assets.asset(named: "\(c) (2)")) == "third")
        #expect(Self.text(assets.asset(atPath: c)) == "third" && Self.text(assets.asset(atPath: b)) == "second")
    }
}
