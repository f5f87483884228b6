import Dispatch
import Foundation
import Preload
import PreloadTestSupport
import Testing

@Suite struct CoordinatorTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func coordinator(_ plugins: [any LoaderPlugin], width: Int = 2) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: plugins, configuration: .init(maxConcurrentLoads: width))
    }

    @Test func loadsEveryRequestAndStoresItByName() async throws {
        let a = try directory.write("a.txt", text: "alpha")
        let b = try directory.write("sub/b.txt", text: "beta")
        let coordinator = try coordinator([TextLoader()])
        let report = try await coordinator.start([AssetRequest(path: a, name: "first"), AssetRequest(path: b)]).finished()
        #expect(report.everythingLoaded && report.loaded.count == 2 && !report.wasCancelled)
        #expect(report.results.map(\.request.name) == ["first", b])
        #expect(coordinator.assets.asset(named: "first", as: TextAsset.self)?.text == "alpha")
        #expect((coordinator.assets.asset(atPath: directory.path + "/./sub/../sub/b.txt") as? TextAsset)?.text == "beta")
        #expect(report.decodedBytes == 9)
        #expect(coordinator.assets.byteCount == 9)
    }

    /// A mistyped level folder is a failure naming it, not an empty success.
    @Test func aFolderThatDoesNotExistFailsByItsPath() async throws {
        let a = try directory.write("a.txt", text: "alpha")
        let coordinator = try coordinator([TextLoader()])
        let missing = directory.file("no/such/folder")
        let report = try await coordinator.start([.folder(missing, name: "level"), AssetRequest(path: a)]).finished()
        #expect(!report.everythingLoaded && report.loaded.count == 1 && report.skippedPaths.isEmpty)
        let error = try #require(report.errors.first)
        #expect(error.path == missing && error.category == .fileNotFound, "\(error)")
    }

    /// Requests written as interpolated strings, as a game builds paths from its asset folder.
    @Test func interpolatedStringsAreRequests() async throws {
        try directory.write("levels/one.txt", text: "first level")
        let folder = directory.path
        let requests: [AssetRequest] = ["\(folder)/levels/one.txt", "\(folder)/missing.txt"]
        let coordinator = try coordinator([TextLoader()])
        let report = try await coordinator.start(requests).finished()
        #expect(report.results.map(\.request.path) == ["\(folder)/levels/one.txt", "\(folder)/missing.txt"])
        #expect(coordinator.assets.asset(named: "\(folder)/levels/one.txt", as: TextAsset.self)?.text == "first level")
        #expect(report.results[1].outcome.error?.category == .fileNotFound)
    }

    @Test func identicalRequestsMergeIntoOneLoad() async throws {
        let path = try directory.write("same.txt", text: "shared")
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.txt"), withDestinationPath: path)
        let loader = TextLoader()
        let coordinator = try coordinator([loader])
        let requests = [
            AssetRequest(path: path, name: "one"),
            AssetRequest(path: directory.path + "/./same.txt", name: "two"),
            AssetRequest(path: directory.file("link.txt"), name: "three"),
        ]
        let loadedEvents = Counter()
        let report = try await coordinator.start(requests, hooks: PreloadHooks(onAssetLoaded: { _ in loadedEvents.increment() })).finished()
        #expect(loader.loads.count == 1, "one file, one decode")
        #expect(report.loaded.count == 3 && loadedEvents.count == 3, "every waiter hears about it")
        #expect(Set(report.results.compactMap(\.assetIndex)).count == 1)
        #expect(report.decodedBytes == 6, "a shared load counts once")
        for name in ["one", "two", "three"] { #expect(coordinator.assets.asset(named: name) != nil) }
    }

    @Test func differentOptionsAreDifferentLoads() async throws {
        enum Flavour: AssetOptionKey { static let defaultValue = "plain" }
        let path = try directory.write("x.txt", text: "x")
        let loader = TextLoader()
        let coordinator = try coordinator([loader])
        var spicy = AssetRequest(path: path, name: "spicy")
        spicy.options[Flavour.self] = "spicy"
        _ = try await coordinator.start([AssetRequest(path: path), spicy]).finished()
        #expect(loader.loads.count == 2)
    }

    @Test func oneBadAssetDoesNotStopTheOthers() async throws {
        let good = try directory.write("good.txt", text: "fine")
        let bad = try directory.write("bad.txt", text: "FAIL")
        let missing = directory.file("missing.txt")
        let unclaimed = try directory.write("thing.xyz", text: "???")
        let failures = Recorder<AssetResult>()
        let coordinator = try coordinator([TextLoader()])
        let report = try await coordinator.start(
            [AssetRequest(path: bad), AssetRequest(path: missing), AssetRequest(path: unclaimed), AssetRequest(path: good)],
            hooks: PreloadHooks(onAssetFailed: { failures.append($0) })
        ).finished()
        #expect(report.loaded.map(\.request.path) == [good])
        #expect(report.errors.map(\.category) == [.corrupt, .fileNotFound, .noLoader])
        #expect(report.errors.map(\.path) == [bad, missing, unclaimed])
        #expect(report.errors[0].description == "\(bad): text says FAIL")
        #expect(failures.all.count == 3)
        #expect(!report.everythingLoaded)
        // print(report) is a short summary, not the batch's internals.
        let summary = "\(report)".split(separator: "\n").map(String.init)
        #expect(summary.count == 4 && summary[0].hasPrefix("1 of 4 loaded, 3 failed, in ") && summary[0].hasSuffix(" ms"), "\(summary)")
        #expect(summary[1] == "  \(bad): text says FAIL" && summary[2].hasPrefix("  \(missing): "), "\(summary)")
    }

    @Test func failFastCancelsWhatHasNotFinished() async throws {
        let gate = Gate()
        let bad = try directory.write("bad.txt", text: "FAIL")
        let slow = try (0..<6).map { try directory.write("slow\($0).gate", text: "z") }
        let coordinator = try coordinator([TextLoader(), GateLoader(gate: gate)])
        let batch = coordinator.start(
            [AssetRequest(path: bad)] + slow.map { AssetRequest(path: $0) },
            options: PreloadOptions(failurePolicy: .failFast))
        let report = try await batch.finished()
        #expect(report.failed.map(\.request.path) == [bad])
        #expect(report.results.first?.outcome.error?.category == .corrupt)
        #expect(report.cancelled.count == 6)
        #expect(report.wasCancelled)
        #expect(gate.stepsTaken.count == 0, "the gate never opened: nothing ran to completion")
    }

    @Test func failFastStopsEvenWhenTheFailureIsFoundWhilePlanning() async throws {
        let coordinator = try coordinator([TextLoader()])
        let good = try directory.write("good.txt", text: "ok")
        let report = try await coordinator.start(
            [AssetRequest(path: directory.file("nope.txt")), AssetRequest(path: good)],
            options: PreloadOptions(failurePolicy: .failFast)
        ).finished()
        #expect(report.errors.map(\.category) == [.fileNotFound])
        #expect(report.cancelled.map(\.request.path) == [good])
    }

    @Test func completionRunsExactlyOnceInEveryEnding() async throws {
        let gate = Gate()
        let coordinator = try coordinator([TextLoader(), GateLoader(gate: gate)])
        let good = try directory.write("ok.txt", text: "ok")
        let bad = try directory.write("bad.txt", text: "FAIL")
        let slow = try directory.write("s.gate", text: "s")
        let endings: [(String, [AssetRequest], Bool)] = [
            ("all loaded", [AssetRequest(path: good)], false),
            ("some failed", [AssetRequest(path: good), AssetRequest(path: bad)], false),
            ("all cancelled", [AssetRequest(path: slow), AssetRequest(path: slow, name: "again")], true),
            ("empty", [], false),
        ]
        for (ending, requests, cancel) in endings {
            let completions = Counter()
            // The batch's hooks run on a serial queue that targets this one.
            let hooks = DispatchQueue(label: "completion-hooks")
            let batch = coordinator.start(
                requests, options: PreloadOptions(callbackQueue: hooks), hooks: PreloadHooks(onCompletion: { _ in completions.increment() }))
            if cancel {
                #expect(await gate.started.waitWithoutBlocking(seconds: 120))
                batch.cancel()
            }
            let report = try await batch.finished()
            // Every hook the batch handed over by the time it finished has run once `hooks` is
            // flushed: a wrong second completion handed over with the first shows up.
            await hooks.flushed()
            #expect(completions.count == 1, "\(ending)")
            #expect(report.results.count == requests.count, "\(ending)")
            #expect(batch.progress.fractionCompleted == 1.0 && batch.progress.isFinished, "\(ending)")
            if cancel { #expect(report.cancelled.count == 2 && report.wasCancelled) }
        }
    }

    @Test func cancelAllCancelsEveryRunningBatch() async throws {
        let gate = Gate()
        let coordinator = try coordinator([GateLoader(gate: gate)])
        let first = coordinator.start([AssetRequest(path: try directory.write("1.gate", text: "1"))])
        let second = coordinator.start([AssetRequest(path: try directory.write("2.gate", text: "2"))])
        #expect(await gate.started.waitWithoutBlocking(seconds: 120))
        coordinator.cancelAll()
        #expect(try await first.finished().cancelled.count == 1)
        #expect(try await second.finished().cancelled.count == 1)
    }

    @Test func unloadingRemovesTheAsset() async throws {
        let path = try directory.write("u.txt", text: "bye")
        let coordinator = try coordinator([TextLoader()])
        _ = try await coordinator.start([AssetRequest(path: path, name: "u")]).finished()
        #expect(coordinator.assets.names == ["u"])
        #expect(coordinator.assets.unload(named: "u"))
        #expect(!coordinator.assets.unload(named: "u"))
        #expect(coordinator.assets.asset(named: "u") == nil && coordinator.assets.asset(atPath: path) == nil)
        #expect(coordinator.assets.byteCount == 0)
    }

    @Test func batchesCanSkipTheStore() async throws {
        let path = try directory.write("t.txt", text: "transient")
        let coordinator = try coordinator([TextLoader()])
        let report = try await coordinator.start([AssetRequest(path: path)], options: PreloadOptions(storesAssets: false)).finished()
        #expect(report.loaded.count == 1)
        #expect(coordinator.assets.count == 0)
    }
}

@Suite struct AssetStoreTests {
    @Test func findsAssetsByNameAndByAnySpellingOfTheirPath() {
        let store = AssetStore()
        store.insert(DataAsset(bytes: [1]), name: "a/b.png", path: "a/b.png", plugin: "x")
        store.insert(DataAsset(bytes: [2, 2]), name: "hero", path: "/tmp/sprites/hero.png", plugin: "x")
        for spelling in ["a/b.png", "./a/b.png", "a//b.png", "a/./b.png", "x/../a/b.png"] {
            #expect((store.asset(atPath: spelling) as? DataAsset)?.bytes.array == [1], "\(spelling)")
        }
        #expect((store.asset(atPath: "/tmp/sprites/../sprites/hero.png") as? DataAsset)?.bytes.array == [2, 2])
        #expect(store.asset(atPath: "a/c.png") == nil && store.asset(atPath: "b.png") == nil)
        #expect(store.byteCount == 3 && store.count == 2)
    }

    /// One rule: an asset is found by its name and by its path, relative or absolute, through
    /// every lookup, and both give the same asset.
    @Test func nameAndPathEachFindTheAssetThroughEveryLookup() throws {
        let store = AssetStore()
        let directory = FileManager.default.currentDirectoryPath
        store.insert(DataAsset(bytes: [7]), name: "hero", path: "art/hero.png", plugin: "x")
        store.insert(DataAsset(bytes: [8, 8]), name: "boss", path: directory + "/art/boss.png", plugin: "x")
        func bytes(_ asset: (any Asset)?) -> [UInt8]? { (asset as? DataAsset)?.bytes.array }
        for words in ["hero", "art/hero.png", "./art/hero.png", directory + "/art/hero.png", directory + "/art/../art/hero.png"] {
            #expect(bytes(store.asset(named: words)) == [7], "asset(named: \(words))")
            #expect(bytes(store.asset(atPath: words)) == [7], "asset(atPath: \(words))")
            #expect(store.entry(named: words)?.name == "hero", "entry(named: \(words))")
        }
        for words in ["boss", "art/boss.png", directory + "/art/boss.png"] {
            #expect(bytes(store.asset(named: words)) == [8, 8] && bytes(store.asset(atPath: words)) == [8, 8], "\(words)")
        }
        #expect(store.asset(named: "art/villain.png") == nil && store.asset(atPath: "/elsewhere/art/hero.png") == nil)
        // A name wins over a path in asset(named:), a path over a name in asset(atPath:).
        store.insert(DataAsset(bytes: [9]), name: "art/hero.png", path: "other/file.png", plugin: "x")
        #expect(bytes(store.asset(named: "art/hero.png")) == [9] && bytes(store.asset(atPath: "art/hero.png")) == [7])
    }

    /// A file's real path finds the asset whatever spelling of its folder loaded it: a relative
    /// path climbing out of the current directory (`../`), a path through a linked folder.
    @Test func aFilesRealPathFindsItThroughAnySpellingOfItsFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        try directory.write("art/hero.png", [1])
        try directory.write("art/boss.png", [2])
        try FileManager.default.createSymbolicLink(atPath: directory.file("linked"), withDestinationPath: real + "/art")
        // `directory` relative to the current directory, climbing out of it.
        let here = FileManager.default.currentDirectoryPath.split(separator: "/")
        let relative = String(repeating: "../", count: here.count) + real.dropFirst()
        let store = AssetStore()
        store.insert(DataAsset(bytes: [1]), name: "hero", path: relative + "/art/hero.png", plugin: "x")
        store.insert(DataAsset(bytes: [2]), name: "boss", path: directory.file("linked/boss.png"), plugin: "x")
        #expect(store.entry(named: real + "/art/hero.png")?.name == "hero")
        #expect((store.asset(atPath: real + "/art/hero.png") as? DataAsset)?.bytes.array == [1])
        #expect(store.entry(named: real + "/art/boss.png")?.name == "boss")
        #expect(store.entry(named: real + "/linked/../art/boss.png")?.name == "boss")
        #expect(store.entry(named: directory.file("linked/hero.png"))?.name == "hero", "the other way round")
        #expect(store.entry(named: real + "/art/villain.png") == nil)
    }

    @Test func unloadingOneNameKeepsAnotherFromTheSamePath() {
        let store = AssetStore()
        store.insert(DataAsset(bytes: [1]), name: "p.png", path: "p.png", plugin: "x")
        store.insert(DataAsset(bytes: [1]), name: "alias", path: "p.png", plugin: "x")
        #expect(store.unload(named: "alias"))
        #expect(store.asset(atPath: "./p.png") != nil, "still reachable by path through its own name")
        #expect(store.unload(named: "p.png"))
        #expect(store.asset(atPath: "p.png") == nil && store.byteCount == 0)
    }

    @Test func replacingANameAdjustsTheByteCount() {
        let store = AssetStore()
        store.insert(DataAsset(bytes: [1, 2, 3]), name: "n", path: "n.bin", plugin: "x")
        store.insert(DataAsset(bytes: [1]), name: "n", path: "n.bin", plugin: "x")
        #expect(store.byteCount == 1 && store.count == 1)
        store.unloadAll()
        #expect(store.byteCount == 0 && store.names.isEmpty)
    }

    @Test func namesMatchByTheirBytesAndEntriesKeepTheirPathAndPlugin() {
        let store = AssetStore()
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"  // equal as Swift strings, not as file names
        store.insert(DataAsset(bytes: [1]), name: composed, path: composed, plugin: "x")
        store.insert(DataAsset(bytes: [2, 2]), name: decomposed, path: "dir/../" + decomposed, plugin: "y", isDependency: true)
        #expect(store.count == 2 && store.byteCount == 3)
        #expect((store.asset(named: composed) as? DataAsset)?.bytes.array == [1])
        #expect((store.asset(named: decomposed) as? DataAsset)?.bytes.array == [2, 2])
        let entry = store.entry(named: decomposed)
        #expect(entry?.path == "dir/../" + decomposed && entry?.plugin == "y" && entry?.isDependency == true && entry?.handle == nil)
        #expect(store.entry(named: composed)?.path == composed && store.names == [composed] && store.dependencyNames == [decomposed])
    }
}

/// Whether a path is already in normal form, checked byte by byte without allocating (the
/// store asks it of every name), against the rule spelled out with `split`.
@Suite struct AssetPathTests {
    @Test func isNormalizedAgreesWithTheRuleOnEveryShortPath() {
        func rule(_ path: String) -> Bool {
            guard !path.isEmpty else { return false }
            var parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.hasPrefix("/") { parts.removeFirst() }  // the root
            return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
        }
        var paths = [""]
        var checked = 0
        while let path = paths.popLast() {
            #expect(AssetPath.isNormalized(path) == rule(path), "\(path)")
            checked += 1
            if path.count < 7 { paths += ["a", ".", "/"].map { path + $0 } }
        }
        #expect(checked == 3280)
        #expect(AssetPath.isNormalized("/tmp/sprites/hero.png") && !AssetPath.isNormalized("sprites/./hero.png"))
    }
}
