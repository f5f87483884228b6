import Foundation
import Preload
import PreloadTestSupport
import Testing

/// Texts in memory whose source counts how often planning looks a file up.
struct CountedTexts: AssetSource {
    let texts: MemoryTexts
    let lookups = Counter()

    func owns(_ path: String) -> Bool { texts.owns(path) }

    func facts(of path: String) throws(AssetError) -> FileFacts {
        lookups.increment()
        return try texts.facts(of: path)
    }

    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        try texts.read(path, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
    }
}

/// Many requests for one file (issue 50, "Scale"): one load, and each request its own outcome,
/// event and store name, as merging promises (docs/architecture.md, "Words").
@Suite struct RepeatedRequestTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func tenThousandRequestsForOneFileAreOneLoadWithTenThousandOutcomes() async throws {
        let path = try directory.write("same.txt", text: "shared")
        let loader = TextLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader], configuration: .init(maxConcurrentLoads: 2))
        // Half under the path (one name), half under names of their own.
        let requests = (0..<10_000).map { $0 % 2 == 0 ? AssetRequest(path: path) : AssetRequest(path: path, name: "copy \($0)") }
        let loadedEvents = Counter()
        let report = try await coordinator.start(requests, hooks: PreloadHooks(onAssetLoaded: { _ in loadedEvents.increment() })).finished()
        #expect(loader.loads.count == 1, "one file, one plugin call")
        #expect(report.results.count == 10_000 && report.loaded.count == 10_000 && loadedEvents.count == 10_000)
        #expect(report.results.map(\.request.name) == requests.map(\.name), "each request its own result, in order")
        #expect(report.decodedBytes == 6, "a shared load counts once")
        #expect(coordinator.assets.names.count == 5_001, "the path and every name of its own")
        for name in [path, "copy 1", "copy 9999"] {
            #expect(coordinator.assets.asset(named: name, as: TextAsset.self)?.text == "shared")
        }
    }

    /// A path requested again and again is looked up by the planning chunk that meets it first,
    /// not once per request: a repeat costs no more than a fresh request.
    @Test func aRepeatedPathIsNotLookedUpPerRequest() async throws {
        let root = directory.file("memory")
        let source = CountedTexts(texts: MemoryTexts(root: root, texts: [root + "/a.txt": "alpha"]))
        let loader = TextLoader()
        let coordinator = try PreloadCoordinator(
            plugins: [loader], configuration: .init(maxConcurrentLoads: 2, sources: [source]))
        let requests = (0..<10_000).map { _ in AssetRequest(path: root + "/a.txt") }
        let report = try await coordinator.start(requests).finished()
        #expect(loader.loads.count == 1 && report.loaded.count == 10_000)
        #expect(source.lookups.count < requests.count / 10, "\(source.lookups.count) lookups for \(requests.count) requests")
    }
}
