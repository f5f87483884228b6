import Preload  // public API only: what a third party's plugin sees
import PreloadTestSupport
import Testing

/// A third party's plugin whose file (`.list`, one path a line) names its dependencies: planning
/// reads it, and the load gets what planning read through its context instead of a cache.
private struct ListLoader: PlanningPlugin {
    var identifier: String { "list" }
    var assetKind: AssetKind { "data" }
    var fileExtensions: Set<String> { ["list"] }
    /// One path per time the plugin read a list file.
    let reads = Recorder<String>()
    /// The note each load found (`nil`: none).
    let notes = Recorder<[String]?>()

    func plan(_ request: PlannedRequest) throws -> LoadPlan<[String]> {
        let names = try names(in: request)
        return LoadPlan(dependencies: names.map { AssetRequest(path: $0) }, note: names, work: 12_345)
    }

    func load(_ context: LoadContext) throws -> any Asset {
        let note = context.planningNote(as: [String].self)
        notes.append(note)
        #expect(context.planningNote(as: Int.self) == nil, "a note of another type is not handed out")
        let names = try note ?? names(in: context.request)
        for name in names { _ = try context.dependency(AssetRequest(path: name)) }
        return DataAsset(bytes: AssetBytes(Array(names.joined(separator: "\n").utf8)))
    }

    private func names(in request: PlannedRequest) throws -> [String] {
        reads.append(request.path)
        let text = String(decoding: try request.files.read(request.path).array, as: UTF8.self)
        return text.split(separator: "\n").map { request.resolvedPath(of: String($0)) ?? String($0) }
    }
}

private struct NoteTextLoader: LoaderPlugin {
    var identifier: String { "text" }
    var assetKind: AssetKind { "data" }
    var fileExtensions: Set<String> { ["txt"] }
    func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: try context.readContents()) }
}

/// ``PlanningPlugin``: what planning read reaches the load through ``LoadContext``, once, with
/// no cache in the plugin; a tool asking without a batch gets the plan's dependencies.
@Suite struct PlanningNoteTests {
    @Test func theLoadGetsWhatPlanningReadAndReadsTheFileOnce() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("a.txt", text: "A")
        _ = try directory.write("b.txt", text: "B")
        let list = try directory.write("level.list", text: "a.txt\nb.txt")
        let loader = ListLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader, NoteTextLoader()])

        let report = try await coordinator.start([AssetRequest(path: list, name: "level")]).finished()

        #expect(report.everythingLoaded, "\(report.errors)")
        let expected = [directory.file("a.txt"), directory.file("b.txt")]
        #expect(loader.notes.all == [expected], "the load found planning's note")
        #expect(loader.reads.all == [list], "the list was read once, while planning")
        let asset = try #require(coordinator.assets.asset(named: "level", as: DataAsset.self))
        #expect(Array(asset.bytes) == Array(expected.joined(separator: "\n").utf8))
    }

    /// A plan with no dependencies (its asset planned with the batch's plain files, not after
    /// them) hands its note too, each to its own asset's load: the notes are the batch's, by asset.
    @Test func aPlanWithoutDependenciesHandsItsNoteToItsOwnLoad() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("a.txt", text: "A")
        let lists = try (0..<6).map { index in
            try directory.write("level\(index).list", text: index == 3 ? "a.txt" : "")
        }
        let loader = ListLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader, NoteTextLoader()])

        let report = try await coordinator.start(lists.map { AssetRequest(path: $0) }).finished()

        #expect(report.everythingLoaded, "\(report.errors)")
        let notes = loader.notes.all
        #expect(notes.count == 6)
        #expect(notes.filter { $0 == [] }.count == 5, "each empty list's load found its (empty) note: \(notes)")
        #expect(notes.filter { $0 == [directory.file("a.txt")] }.count == 1, "\(notes)")
        #expect(loader.reads.all.count == 6, "every list was read once, while planning")
    }

    @Test func aToolAskingWithoutABatchGetsThePlansDependencies() throws {
        let directory = try TemporaryDirectory()
        let list = try directory.write("level.list", text: "a.txt")
        let request = PlannedRequest(request: AssetRequest(path: list), plugin: "list", file: try AssetFiles.local.facts(of: list))
        #expect(try ListLoader().dependencies(of: request).map(\.path) == [directory.file("a.txt")])
    }
}
