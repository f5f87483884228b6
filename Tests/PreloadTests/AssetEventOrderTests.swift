import Foundation
import Preload
import PreloadTestSupport
import Testing

/// Per-asset hooks delivered in request or dependency order while loads finish in any order.
@Suite struct AssetEventOrderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Requests for `.delay` files named `name` (see ``DelayLoader`` for what the text means).
    func requests(_ delays: [(name: String, milliseconds: String)]) throws -> [AssetRequest] {
        try delays.map { AssetRequest(path: try directory.write("\($0.name).delay", text: $0.milliseconds), name: $0.name) }
    }

    /// Loads `requests` (every load at once) and returns the names in the order the hooks saw them.
    func delivered(
        _ requests: [AssetRequest], order: AssetEventOrder, plugins: [any LoaderPlugin] = [DelayLoader()]
    )
        async throws -> (hooks: [String], finished: [String])
    {
        let loader = plugins.compactMap { $0 as? DelayLoader }.first
        let coordinator = try PreloadCoordinator(plugins: plugins, configuration: .init(maxConcurrentLoads: 64))
        let seen = Recorder<String>()
        _ = try await coordinator.start(
            requests, options: PreloadOptions(assetEventOrder: order),
            hooks: {
                var hooks = PreloadHooks(onAssetLoaded: { seen.append($0.request.name) }, onAssetFailed: { seen.append("failed " + $0.request.name) })
                hooks.includesDependencies = true  // the order of dependencies is under test too
                return hooks
            }()
        ).finished()
        return (seen.all, loader?.finished.all ?? [])
    }

    @Test func usersAreProcessedBeforeReportsEvenWhenReportsFinishFirst() async throws {
        let both = try requests([("users", "after reports"), ("reports", "0")])
        let asTheyFinish = try await delivered(both, order: .completion)
        #expect(asTheyFinish.finished == ["reports", "users"], "the reports file does finish first")
        #expect(asTheyFinish.hooks == ["reports", "users"])
        #expect(try await delivered(both, order: .request).hooks == ["users", "reports"])
        let reportsFirst = Array(both.reversed())
        #expect(try await delivered(reportsFirst, order: .request).hooks == ["reports", "users"])
        #expect(try await delivered(reportsFirst, order: .dependencies(after: ["reports": ["users"]])).hooks == ["users", "reports"])
    }

    @Test(arguments: [1, 2, 3])
    func requestOrderHoldsUnderRandomCompletionOrder(seed: UInt64) async throws {
        // Loads finish in a random order: each waits for the one before it in a shuffled list.
        var random = SeededRandom(seed: seed)
        let names = (0..<24).map { "asset\($0)" }
        let finishing = names.shuffled(using: &random)
        let all = try requests(
            names.map { name in
                let place = finishing.firstIndex(of: name)!
                return (name, place == 0 ? "0" : "after " + finishing[place - 1])
            })
        let run = try await delivered(all, order: .request)
        #expect(run.finished == finishing && finishing != names, "loads finished out of order (else the test proves nothing)")
        #expect(run.hooks == names)
    }

    @Test func dependencyOrderWaitsOnlyForPrerequisites() async throws {
        // c after a and b; a and b independent: b (fast) goes at once, then a, then c.
        let all = try requests([("a", "after b"), ("b", "0"), ("c", "0")])
        let run = try await delivered(all, order: .dependencies(after: ["c": ["a", "b"]]))
        #expect(run.hooks == ["b", "a", "c"])
    }

    @Test func aFailedPrerequisiteIsDeliveredBeforeItsDependent() async throws {
        let all = try requests([("users", "FAIL"), ("reports", "0")])
        let run = try await delivered(Array(all.reversed()), order: .dependencies(after: ["reports": ["users"]]))
        #expect(run.hooks == ["failed users", "reports"])
    }

    @Test func declaredDependenciesComeFirstInDependencyOrder() async throws {
        let order = Recorder<String>()
        try directory.write("x.txt", text: "ex")
        try directory.write("y.txt", text: "why")
        let bundle = try directory.write("both.bundle", text: "x.txt\ny.txt")
        let run = try await delivered(
            [AssetRequest(path: bundle, name: "bundle")], order: .dependencies(),
            plugins: [TextLoader(), BundleLoader(order: order)])
        #expect(run.hooks.last == "bundle" && Set(run.hooks.dropLast()) == ["bundle#x.txt", "bundle#y.txt"])
    }

    @Test func aCycleOfNamesIsDeliveredAtTheEndInRequestOrder() async throws {
        let all = try requests([("p", "0"), ("q", "0"), ("r", "0")])
        let run = try await delivered(all, order: .dependencies(after: ["p": ["q"], "q": ["p"]]))
        #expect(run.hooks == ["r", "p", "q"])
    }
}
