import Foundation
import Preload  // public API only: what a third party's plugin sees of a planned request
import PreloadTestSupport
import Testing

/// What a plugin saw of one `PlannedRequest`, copied out as plain values.
private struct Seen: Hashable, Sendable {
    let call: String
    let path: String
    let name: String
    let plugin: String
    let size: Int64
    let inode: UInt64
}

extension Seen {
    init(_ call: String, _ request: PlannedRequest) {
        self.init(
            call: call, path: request.path, name: request.request.name, plugin: request.plugin, size: request.file.size,
            inode: request.file.inode)
    }
}

/// `.list` files name other files, one a line (beside them); every call records what it is handed.
private struct ListLoader: LoaderPlugin {
    var identifier: String { "list" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["list", "item"] }
    var headerLength: Int { 5 }
    let seen = Recorder<Seen>()

    func matchesSignature(_ header: [UInt8]) -> Bool { header.elementsEqual("LIST:".utf8) }

    func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        seen.append(Seen("dependencies", request))
        guard request.path.hasSuffix(".list") else { return [] }
        let text = String(decoding: try request.files.read(request.path).array, as: UTF8.self)
        return text.split(separator: "\n").dropFirst().compactMap { request.resolvedPath(of: String($0)) }.map { AssetRequest(path: $0) }
    }

    func estimatedWork(for request: PlannedRequest) -> Int64? {
        seen.append(Seen("estimatedWork", request))
        return nil
    }

    func load(_ context: LoadContext) throws -> any Asset {
        seen.append(Seen("load", context.request))
        return DataAsset(bytes: try context.readContents())
    }
}

/// Claims `.other` files by the signature `OTHER`; a `.list`/`.item` file holding it is given here.
private struct OtherLoader: LoaderPlugin {
    var identifier: String { "other" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["other"] }
    var headerLength: Int { 5 }
    let seen = Recorder<Seen>()

    func matchesSignature(_ header: [UInt8]) -> Bool { header.elementsEqual("OTHER".utf8) }

    func load(_ context: LoadContext) throws -> any Asset {
        seen.append(Seen("load", context.request))
        return DataAsset(bytes: try context.readContents())
    }
}

/// A `PlannedRequest` is a view of its batch's per-entry arrays (issue 50): each call of a plugin
/// must see its own entry's request, file and plugin, whether the entry is a caller's, one merged
/// into another, a dependency numbered past the caller's, or one claimed by content.
@Suite struct PlannedRequestTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// What planning should hand a plugin's `call` about the file at `path`, as `name`.
    fileprivate func expected(_ call: String, _ path: String, name: String, plugin: String = "list") throws -> Seen {
        let facts = try AssetFiles.local.facts(of: path)
        return Seen(call: call, path: path, name: name, plugin: plugin, size: facts.size, inode: facts.inode)
    }

    @Test func eachCallSeesItsOwnEntryForCallersMergedRequestsAndDependencies() async throws {
        let a = try directory.write("a.item", text: "LIST:a")
        let b = try directory.write("sub/b.item", text: "LIST:bb")
        let list = try directory.write("sub/level.list", text: "LIST:\nb.item\nc.item\n../a.item")
        let c = try directory.write("sub/c.item", text: "LIST:ccc")
        let loader = ListLoader(), other = OtherLoader()
        let link = directory.file("link.item")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: b)
        let coordinator = try PreloadCoordinator(plugins: [loader, other], configuration: .init(maxConcurrentLoads: 2))
        // `b` twice under two names and paths (one file: one asset, the first request's), then
        // a list naming `b`, `c` (a dependency entry only) and `a`.
        let report = try await coordinator.start([
            AssetRequest(path: a, name: "a"), AssetRequest(path: b, name: "b"), AssetRequest(path: link, name: "b again"),
            AssetRequest(path: list, name: "level"),
        ]).finished()
        #expect(report.everythingLoaded, "\(report.errors)")
        let loads = loader.seen.all.filter { $0.call == "load" }
        #expect(Set(loads.map(\.path)) == [a, b, list, c] && loads.count == 4, "one load per asset: \(loads)")
        for (path, name) in [(a, "a"), (b, "b"), (list, "level"), (c, "level#c.item")] {
            #expect(loads.first { $0.path == path } == (try expected("load", path, name: name)))
        }
        // Asked about every entry it resolved, each with its own facts (the dependencies of the
        // list are entries past the caller's: none is read as a caller's request).
        let asked = loader.seen.all.filter { $0.call == "dependencies" }
        for seen in asked { #expect(seen == (try expected("dependencies", seen.path, name: seen.name))) }
        #expect(Set(asked.map(\.path)).isSuperset(of: [a, b, link, list, c]))
        #expect(loader.seen.all.filter { $0.call == "estimatedWork" }.count == asked.count, "asked right after dependencies(of:)")
        #expect(report.results.count == 4 && report.allResults.filter(\.isDependency).map(\.request.path).contains(c))
    }

    @Test func aFileClaimedByContentCarriesItsPluginAndItsWarning() async throws {
        let misnamed = try directory.write("misnamed.item", text: "OTHER, not a list")
        let plain = try directory.write("plain.item", text: "LIST:")
        let loader = ListLoader(), other = OtherLoader()
        let coordinator = try PreloadCoordinator(plugins: [loader, other], configuration: .init(maxConcurrentLoads: 2))
        let report = try await coordinator.start([AssetRequest(path: plain), AssetRequest(path: misnamed)]).finished()
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(other.seen.all == [try expected("load", misnamed, name: misnamed, plugin: "other")])
        let result = try #require(report.results.first { $0.request.path == misnamed })
        #expect(result.plugin == "other" && result.warnings.map(\.code) == [.contentNotExtension])
        let plainResult = try #require(report.results.first { $0.request.path == plain })
        #expect(plainResult.plugin == "list" && plainResult.warnings.isEmpty, "the warning is its entry's alone")
    }

    /// Third-party code makes planned requests itself (a plugin's tests): a value with the
    /// facts it was given, equal to another made alike, usable as a key.
    @Test func thePublicInitialiserMakesAValueWithTheFactsItWasGiven() throws {
        let path = try directory.write("one.list", text: "LIST:\nx.item")
        let facts = try AssetFiles.local.facts(of: path)
        let request = PlannedRequest(request: AssetRequest(path: path, name: "one"), plugin: "list", file: facts)
        let copy = request
        let twin = PlannedRequest(request: AssetRequest(path: path, name: "one"), plugin: "list", file: facts, files: .local)
        #expect(request.path == path && request.request.name == "one" && request.plugin == "list" && request.file == facts)
        #expect(
            request.options == AssetOptions() && request.containerPrefix == nil
                && request.description == AssetRequest(path: path, name: "one").description)
        #expect(copy == request && twin == request && Set([request, copy, twin]).count == 1)
        let other = PlannedRequest(request: AssetRequest(path: path, name: "one"), plugin: "other", file: facts)
        #expect(other != request)
        #expect(try ListLoader().dependencies(of: request).map(\.path) == [directory.file("x.item")])
    }
}
