import Foundation
import Preload  // public API only, no `@_spi` and no `@testable`: what a third party's plugin sees
import PreloadConcurrency
import PreloadTestSupport
import Testing

/// A bundle a third party might write: `LINES\n`, then a line `NAME=TEXT` per entry. An entry
/// whose text is `!` is damaged (it fails by its path). Requesting the bundle requests every
/// entry, through the bulk path (``BulkExpandingPlugin``); `BUNDLE#NAME` is one entry (the
/// bundle is a ``ContainerPlugin`` too, so that such a path is found), loaded alone by
/// ``load(_:)``. It counts what the batch asks of it.
struct LinesBundleLoader: BulkExpandingPlugin, ContainerPlugin {
    var identifier: String { "lines" }
    var assetKind: AssetKind { "text" }
    var fileExtensions: Set<String> { ["lines"] }
    var headerLength: Int { 6 }
    /// The bundles it opened (once per run, or once per entry loaded alone).
    let opened = Recorder<String>()
    /// The runs it was handed, by their sizes.
    let runs = Recorder<Int>()
    /// Called with each entry's name as it loads (a test cancels from here).
    let onEntry: @Sendable (String) -> Void
    /// Whether a run cannot open the bundle (as if it went away after planning).
    let runsFail: Bool
    /// The store name of each entry, by its name; `nil`: its name.
    let storeName: (@Sendable (String) -> String)?
    /// Whether it names and sizes its entries by position (``BulkEntries/name(at:)``,
    /// ``BulkEntries/size(at:)``), not as columns.
    let namesByPosition: Bool
    /// The entries it named by position, as the batch asked.
    let named = Recorder<Int>()
    /// The entries it sized by position, as the batch asked.
    let sized = Recorder<Int>()

    init(
        runsFail: Bool = false, storeName: (@Sendable (String) -> String)? = nil, namesByPosition: Bool = false,
        onEntry: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.onEntry = onEntry
        self.runsFail = runsFail
        self.storeName = storeName
        self.namesByPosition = namesByPosition
    }

    static func bundle(_ entries: [(name: String, text: String)]) -> [UInt8] {
        Array(("LINES\n" + entries.map { "\($0.name)=\($0.text)\n" }.joined()).utf8)
    }

    private func lines(of path: String) throws -> [(name: String, text: String)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AssetError(path: path, category: .fileNotFound, reason: "no such file")
        }
        opened.append(path)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().map { line in
            (String(line.prefix { $0 != "=" }), String(line.drop { $0 != "=" }.dropFirst()))
        }
    }

    private func asset(_ text: String, named name: String) throws -> any Asset {
        onEntry(name)
        guard text != "!" else { throw AssetError(path: name, category: .corrupt, reason: "damaged entry '\(name)'") }
        return DataAsset(bytes: AssetBytes(Array(text.utf8)))
    }

    func bulkEntries(of request: AssetRequest) throws -> BulkEntries? {
        guard !request.path.contains("#") else { return nil }
        let lines = try lines(of: request.path)
        let sizes = lines.map { Int64($0.text.utf8.count) }, storeNames = storeName.map { lines.map(\.name).map($0) } ?? []
        guard namesByPosition else { return BulkEntries(container: request.path, names: lines.map(\.name), sizes: sizes, storeNames: storeNames) }
        let names = lines.map(\.name), named = named, sized = sized
        return BulkEntries(
            container: request.path, count: names.count,
            name: { index in
                named.append(index)
                return names[index]
            },
            size: { index in
                sized.append(index)
                return sizes[index]
            }, storeNames: storeNames)
    }

    func expand(_ request: AssetRequest) throws -> [AssetRequest] {
        guard !request.path.contains("#") else { return [request] }
        return try lines(of: request.path).map {
            AssetRequest(path: request.path + "#" + $0.name, name: storeName?($0.name) ?? $0.name, plugin: identifier)
        }
    }

    func loadEntries(_ run: BulkEntryRun) throws {
        if runsFail { throw AssetError(path: run.container, category: .unreadable, reason: "the bundle went away") }
        let lines = try lines(of: run.container)
        runs.append(run.count)
        run.loadEach { position, _ in try asset(lines[position].text, named: lines[position].name) }
    }

    func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: "LINES\n".utf8) }

    func opensContainer(at path: String, header: [UInt8]) -> Bool { matchesSignature(header) }

    func entryNames(in container: String) throws -> [String] { try lines(of: container).map(\.name) }

    private func text(of entry: String, in container: String) throws -> String {
        guard let line = try lines(of: container).first(where: { $0.name == entry }) else {
            throw AssetError(path: container + "#" + entry, category: .fileNotFound, reason: "no such entry")
        }
        return line.text
    }

    func entrySize(_ entry: String, in container: String) throws -> Int64 { Int64(try text(of: entry, in: container).utf8.count) }

    func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        AssetBytes(Array(try text(of: entry, in: container).utf8))
    }

    func load(_ context: LoadContext) throws -> any Asset {
        guard let name = context.request.file.entry, let container = context.request.containerPrefix?.dropLast() else {
            throw AssetError(path: context.request.path, category: .unsupported, reason: "request the bundle, or one entry")
        }
        return try asset(try text(of: name, in: String(container)), named: name)
    }
}

/// A third party's bulk plugin, through the public API alone: requesting its bundle loads every
/// entry with the outcomes, events, progress and budget that requesting each entry alone gives.
@Suite struct PublicBulkPluginTests {
    /// What a batch did, in terms that do not depend on timing.
    private struct Observed: Equatable {
        var results: [String: String] = [:]  // store name -> the loaded text, or the error's path and category
        var loadedEvents: [String] = []
        var failedEvents: [String] = []
        var stored: [String] = []
        var progressTotal: Int64 = 0
        var progressCompleted: Int64 = 0
        var handedOver: [String] = []
    }

    private static func observe(
        _ requests: [AssetRequest], plugin: LinesBundleLoader, options: PreloadOptions = PreloadOptions(), jobs: Int = 2
    ) async throws -> (Observed, PreloadReport) {
        let coordinator = try PreloadCoordinator(plugins: [plugin], configuration: .init(maxConcurrentLoads: jobs))
        let loaded = Recorder<String>(), failed = Recorder<String>(), progress = Recorder<PreloadProgress>()
        let hooks = PreloadHooks(
            onProgress: { progress.append($0) }, onAssetLoaded: { loaded.append($0.request.name) },
            onAssetFailed: { failed.append($0.request.name) })
        let report = try await coordinator.preload(requests, options: options, hooks: hooks)
        var observed = Observed()
        for result in report.results {
            if let data = result.outcome.asset as? DataAsset {
                observed.results[result.request.name] = String(decoding: data.bytes.withUnsafeBytes { Array($0) }, as: UTF8.self)
            } else if let error = result.outcome.error {
                observed.results[result.request.name] = "\(error.path) \(error.category)"
            } else {
                observed.results[result.request.name] = "cancelled"
            }
        }
        observed.loadedEvents = loaded.all.sorted()
        observed.failedEvents = failed.all.sorted()
        observed.stored = report.results.map(\.request.name).filter { coordinator.assets.asset(named: $0) != nil }.sorted()
        let last = progress.all.last
        observed.progressTotal = last?.totalUnitCount ?? 0
        observed.progressCompleted = last?.completedUnitCount ?? 0
        return (observed, report)
    }

    private static func entries(_ count: Int, damaged: Set<Int> = []) -> [(name: String, text: String)] {
        (0..<count).map { ("art/e\($0)", damaged.contains($0) ? "!" : "text \($0) " + String(repeating: "x", count: $0 % 7)) }
    }

    /// The requests the bundle's entries are, each loaded alone (the one-by-one path).
    private static func oneByOne(_ bundle: String, _ plugin: LinesBundleLoader) throws -> [AssetRequest] {
        try plugin.expand(AssetRequest(path: bundle))
    }

    @Test func theBulkPathLoadsWhatOneByOneLoadsOpeningTheBundleOncePerRun() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(300)))
        let alone = LinesBundleLoader(), bulk = LinesBundleLoader()
        let (expected, _) = try await Self.observe(try Self.oneByOne(bundle, alone), plugin: alone)
        let (observed, report) = try await Self.observe([AssetRequest(path: bundle)], plugin: bulk)
        #expect(observed == expected)
        #expect(report.results.count == 300 && report.everythingLoaded)
        #expect(observed.progressTotal == Self.entries(300).reduce(0) { $0 + max(Int64($1.text.utf8.count), 1) })
        #expect(observed.progressCompleted == observed.progressTotal)
        // Planning opened the bundle once; loading once per run, never once per entry.
        #expect(bulk.runs.all.reduce(0, +) == 300)
        #expect(bulk.opened.all.count == 1 + bulk.runs.all.count)
        #expect(bulk.runs.all.count < 300 / 4, "\(bulk.runs.all)")
        #expect(alone.opened.all.count >= 300)
    }

    @Test func entriesNamedByPositionLoadAsEntriesNamedInAColumn() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(300, damaged: [5])))
        let column = LinesBundleLoader(), byPosition = LinesBundleLoader(namesByPosition: true)
        let (expected, _) = try await Self.observe([AssetRequest(path: bundle)], plugin: column)
        let (observed, report) = try await Self.observe([AssetRequest(path: bundle)], plugin: byPosition)
        #expect(observed == expected)
        #expect(report.failed.map(\.request.path) == [bundle + "#art/e5"])
        // The batch asks for names and sizes by position, the plugin never makes a column of them.
        #expect(Set(byPosition.named.all) == Set(0..<300))
        #expect(Set(byPosition.sized.all) == Set(0..<300))
        #expect(byPosition.sized.all.count <= 2 * 300, "a size at a time, never the column: \(byPosition.sized.all.count)")
        #expect(report.results.map(\.progressWeight) == Self.entries(300, damaged: [5]).map { Int64($0.text.utf8.count) })
        let quiet = LinesBundleLoader(namesByPosition: true)
        let loaded = try await PreloadCoordinator(plugins: [quiet]).preload([AssetRequest(path: bundle)])
        #expect(loaded.results.map(\.request.path) == Self.entries(300).map { bundle + "#" + $0.name })
        #expect(loaded.results.map(\.request.name) == Self.entries(300).map(\.name))
        // The listing itself: a name at a time, or every name as a column.
        let listed = try #require(try quiet.bulkEntries(of: AssetRequest(path: bundle)))
        #expect(listed.count == 300 && listed.name(at: 7) == "art/e7")
        #expect(listed.names == Self.entries(300).map(\.name))
        var renamed = listed
        renamed.names[0] = "first"
        #expect(renamed.count == 300 && renamed.name(at: 0) == "first" && renamed.name(at: 1) == "art/e1")
        let sizes = Self.entries(300, damaged: [5]).map { Int64($0.text.utf8.count) }
        #expect(listed.size(at: 7) == sizes[7] && listed.sizes == sizes)
        var resized = listed
        resized.sizes[0] = 1_000
        #expect(resized.size(at: 0) == 1_000 && resized.size(at: 1) == sizes[1] && resized.sizes.count == 300)
    }

    @Test func aDamagedEntryFailsAloneByItsPathOnBothPaths() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(40, damaged: [7, 31])))
        let alone = LinesBundleLoader(), bulk = LinesBundleLoader()
        let (expected, _) = try await Self.observe(try Self.oneByOne(bundle, alone), plugin: alone)
        let (observed, report) = try await Self.observe([AssetRequest(path: bundle)], plugin: bulk)
        #expect(observed == expected)
        #expect(report.failed.map(\.request.path) == [bundle + "#art/e7", bundle + "#art/e31"])
        #expect(report.failed.allSatisfy { $0.outcome.error?.category == .corrupt })
        #expect(observed.failedEvents == ["art/e31", "art/e7"])
        #expect(report.loaded.count == 38)
    }

    @Test func aRunThatCannotOpenItsFileFailsEachOfItsEntriesByItsPath() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(30)))
        let plugin = LinesBundleLoader(runsFail: true)
        let (observed, report) = try await Self.observe([AssetRequest(path: bundle)], plugin: plugin)
        #expect(report.results.count == 30 && report.failed.count == 30)
        #expect(report.failed.map(\.request.path) == Self.entries(30).map { bundle + "#" + $0.name })
        #expect(report.errors.allSatisfy { $0.category == .unreadable && $0.reason.contains("the bundle went away") }, "\(report.errors)")
        #expect(observed.failedEvents.count == 30 && observed.loadedEvents.isEmpty)
        #expect(observed.progressCompleted == observed.progressTotal)
    }

    @Test func cancellingMidwayStopsTheRunBetweenEntries() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(400)))
        for path in ["bulk", "alone"] {
            let coordinator = Locked<PreloadCoordinator?>(nil)
            let plugin = LinesBundleLoader(onEntry: { name in
                if name == "art/e20" { coordinator.withLock { $0 }?.cancelAll() }
            })
            let made = try PreloadCoordinator(plugins: [plugin], configuration: .init(maxConcurrentLoads: 1))
            coordinator.withLock { $0 = made }
            let loaded = Recorder<String>()
            let requests = path == "bulk" ? [AssetRequest(path: bundle)] : try Self.oneByOne(bundle, plugin)
            let report = try await made.preload(requests, hooks: PreloadHooks(onAssetLoaded: { loaded.append($0.request.name) }))
            #expect(report.wasCancelled, "\(path)")
            #expect(report.results.count == 400 && report.failed.isEmpty, "\(path)")
            // One worker, loads in request order: the entries up to the one that cancelled
            // loaded, and none after it, in its run or any other.
            #expect(Set(report.loaded.map(\.request.name)) == Set(Self.entries(21).map(\.name)), "\(path)")
            #expect(report.cancelled.count > 0 && report.cancelled.count + report.loaded.count == 400, "\(path)")
            #expect(Set(loaded.all) == Set(report.loaded.map(\.request.name)), "\(path): an event for each loaded entry, none other")
        }
    }

    @Test func aMemoryBudgetAdmitsBulkEntriesAsItAdmitsEntriesLoadedAlone() async throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.lines", LinesBundleLoader.bundle(Self.entries(120)))
        var handed: [[String]] = [], peaks: [Int] = [], observed: [Observed] = []
        for path in ["alone", "bulk"] {
            let plugin = LinesBundleLoader()
            let handOff = AssetHandOff(releasesCPUCopies: true)
            let stop = Locked(false)
            defer { stop.withLock { $0 = true } }
            let uploaded = handOff.recordNamesOnAThread(until: stop)
            let options = PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 64)
            let requests = path == "bulk" ? [AssetRequest(path: bundle)] : try Self.oneByOne(bundle, plugin)
            let (seen, report) = try await Self.observe(requests, plugin: plugin, options: options, jobs: 1)
            #expect(report.everythingLoaded, "\(path): \(report.errors)")
            handed.append(uploaded.all)
            peaks.append(report.peakHeldBytes)
            observed.append(seen)
        }
        #expect(observed[1] == observed[0])
        #expect(peaks[1] == peaks[0] && peaks[0] > 0, "\(peaks)")
        #expect(handed[1] == handed[0])
        #expect(handed[1] == Self.entries(120).map(\.name), "handed over in request order")
    }
}
