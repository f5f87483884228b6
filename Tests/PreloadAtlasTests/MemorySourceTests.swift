import Foundation
import Preload
import PreloadAtlas
import PreloadConcurrency
import PreloadPNG
import PreloadTestSupport
import Testing

/// A source written as a third party writes one, with Preload's public API alone: files held in
/// memory, served as `mem://` paths, and their folders listed from that index. Its `prepare`
/// pretends they arrive (bytes to the batch's bar, a transfer for the report), as a source that
/// brings files from elsewhere does.
struct MemorySource: AssetSource {
    let files: [String: [UInt8]]
    /// What each call to `prepare` was asked for, in order.
    let prepared = Locked<[[String]]>([])

    func owns(_ path: String) -> Bool { path.hasPrefix("mem://") }

    func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>] {
        prepared.withLock { $0.append(files.map(\.path)) }
        return files.map { file in
            if isFolder(file.path) { return .success(PreparedFile()) }  // a sprite folder: nothing of its own to bring
            guard let bytes = self.files[file.path] else { return .failure(Self.missing(file.path)) }
            session.expect(Int64(bytes.count))
            session.receive(Int64(bytes.count))
            return .success(PreparedFile(transfer: AssetTransfer(url: file.path, networkBytes: Int64(bytes.count), cacheBytes: 0, attempts: 1)))
        }
    }

    func facts(of path: String) throws(AssetError) -> FileFacts {
        if isFolder(path) { return FileFacts(sourcePath: path, size: 0, isDirectory: true) }
        guard let bytes = files[path] else { throw Self.missing(path) }
        return FileFacts(sourcePath: path, size: Int64(bytes.count))
    }

    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        guard let bytes = files[path] else { throw Self.missing(path) }
        guard bytes.count <= limit else { throw AssetError(path: path, category: .limitExceeded, reason: "over \(limit) bytes") }
        return AssetBytes(bytes)
    }

    /// The files below `folder`, from the index (a folder request's and a sprite folder's files).
    func files(under folder: String) throws -> [String] {
        let names = files.keys.filter { $0.hasPrefix(folder + "/") }.map { String($0.dropFirst(folder.count + 1)) }
        guard !names.isEmpty else { throw Self.missing(folder) }
        return names.sorted()
    }

    /// Whether `path` names no file but prefixes some: a folder.
    func isFolder(_ path: String) -> Bool {
        files[path] == nil && files.keys.contains { $0.hasPrefix(path + "/") }
    }

    static func missing(_ path: String) -> AssetError {
        AssetError(path: path, category: .fileNotFound, reason: "not in memory")
    }
}

/// Assets loaded from a third-party source through the ordinary plugins: a TexturePacker atlas
/// (whose page the atlas plugin names beside it, in the same source) and a PNG, with progress,
/// results, transfers and errors as a batch of files on disk gives them.
@Suite struct MemorySourceTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func fixture(_ relative: String) throws -> [UInt8] {
        try #require(FileManager.default.contents(atPath: fixtures + "/" + relative)).map { $0 }
    }

    static func source() throws -> MemorySource {
        MemorySource(files: [
            "mem://level/sheet.json": try fixture("texturepacker-hash/sheet.json"),
            "mem://level/sheet.png": try fixture("texturepacker-hash/sheet.png"),
            "mem://level/hero.png": try fixture("sprites/hero.png"),
        ])
    }

    @Test func anAtlasAndAPNGLoadFromMemoryThroughTheOrdinaryPlugins() async throws {
        let source = try Self.source()
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(sources: [source]))
        let fractions = Locked<[Double]>([])
        let batch = coordinator.start(
            [
                AssetRequest(path: "mem://level/sheet.json", name: "ui"), "mem://level/hero.png",
                AssetRequest(path: "mem://level/hero.png", name: "again"),
            ],
            hooks: PreloadHooks(onProgress: { progress in fractions.withLock { $0.append(progress.fractionCompleted) } }))
        let report = await withCheckedContinuation { continuation in batch.whenFinished { continuation.resume(returning: $0) } }

        #expect(report.everythingLoaded, "\(report.errors)")
        // The atlas's page was named beside it, in the same source, and loaded from it.
        let atlas = try #require(coordinator.assets.asset(named: "ui", as: TextureAtlas.self))
        #expect(atlas.frame(named: "chars/hero.png") != nil && atlas.pages.count == 1)
        #expect(report.allResults.contains { $0.isDependency && $0.request.path == "mem://level/sheet.png" && $0.outcome.isLoaded })
        // The PNG decodes to what the PNG plugin makes of the same bytes on disk.
        let hero = try #require(coordinator.assets.texture(named: "mem://level/hero.png"))
        let onDisk = try PNGDecoder.decode(try Self.fixture("sprites/hero.png"))
        #expect(hero.width == onDisk.width && hero.height == onDisk.height && hero.pixels == onDisk.pixels)
        // Two requests for one path of the source are one asset (its identity is its path).
        #expect(coordinator.assets.texture(named: "again")?.pixels == hero.pixels)
        #expect(report.allResults.filter { $0.request.path == "mem://level/hero.png" }.map(\.progressWeight).allSatisfy { $0 > 0 })
        // Progress: the prepared bytes and the loads on one bar, ending at 1.
        #expect(fractions.withLock { $0.last } == 1)
        #expect(batch.progress.totalUnitCount > 0 && batch.progress.fractionCompleted == 1)
        // The caller's paths were prepared in one call before planning (the page, met while
        // planning, on its own); each transfer is in the report.
        #expect(source.prepared.withLock { $0 } == [["mem://level/sheet.json", "mem://level/hero.png"], ["mem://level/sheet.png"]])
        let result = try #require(report.results.first { $0.request.path == "mem://level/hero.png" })
        #expect(report.transfer(of: result)?.networkBytes == Int64(try Self.fixture("sprites/hero.png").count))
    }

    @Test func aPathTheSourceDoesNotHaveFailsByName() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(sources: [try Self.source()]))
        let report = try await coordinator.preload(["mem://level/missing.png", "mem://level/hero.png"])
        let failure = try #require(report.errors.first)
        #expect(report.errors.count == 1 && failure.path == "mem://level/missing.png" && failure.category == .fileNotFound)
        #expect(coordinator.assets.texture(named: "mem://level/hero.png") != nil, "one bad asset never stops the others")
    }

    @Test func aPluginReadsASourcesFilesThroughItsFiles() throws {
        let source = try Self.source()
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(sources: [source]))
        _ = coordinator
        // Outside a batch, a source is asked directly: its facts and its first bytes.
        #expect(try source.facts(of: "mem://level/hero.png").size == Int64(try Self.fixture("sprites/hero.png").count))
        #expect(try source.prefix("mem://level/hero.png", count: 8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try source.files(under: "mem://level") == ["hero.png", "sheet.json", "sheet.png"])
    }

    /// A folder request under the source is listed by it (never a walk of the disk, where
    /// `mem://level` is nothing): every asset in it loads, a sprite folder among them as one
    /// atlas, with the results the same files give in a folder on disk.
    @Test func aFolderOfTheSourceLoadsEveryAssetInItAsOnDisk() async throws {
        var files = try Self.source().files
        files["mem://level/heroes.atlas/hero.png"] = try Self.fixture("sprites/hero.png")
        files["mem://level/heroes.atlas/coin.png"] = try Self.fixture("sprites/coin.png")
        files["mem://level/.thumbnails/hero.png"] = try Self.fixture("sprites/hero.png")
        let source = MemorySource(files: files)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(sources: [source]))
        let report = try await coordinator.preload([.folder("mem://level", name: "level")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let sprites = try #require(coordinator.assets.asset(named: "level/heroes.atlas", as: TextureAtlas.self))
        #expect(Set(sprites.frameNames) == ["hero.png", "coin.png"])
        #expect(coordinator.assets.asset(named: "level/sheet.json", as: TextureAtlas.self)?.frame(named: "chars/hero.png") != nil)
        #expect(coordinator.assets.texture(named: "level/hero.png")?.pixels == (try PNGDecoder.decode(try Self.fixture("sprites/hero.png"))).pixels)
        // What the folder held was prepared in one call (a hidden folder's files left out), then
        // the sprites the sprite folder's plugin met while planning.
        let listed = ["hero.png", "heroes.atlas", "sheet.json", "sheet.png"].map { "mem://level/" + $0 }
        #expect(source.prepared.withLock { $0 } == [listed, ["mem://level/heroes.atlas/coin.png"], ["mem://level/heroes.atlas/hero.png"]])

        // The same files in a folder on disk: the same results, by name, in the same order.
        let disk = try TemporaryDirectory()
        for (path, bytes) in files { try disk.write(String(path.dropFirst("mem://level/".count)), bytes) }
        let onDisk = try await PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()]).preload([.folder(disk.path, name: "level")])
        #expect(onDisk.everythingLoaded)
        #expect(report.allResults.map(\.request.name) == onDisk.allResults.map(\.request.name))
        #expect(report.allResults.map(\.isDependency) == onDisk.allResults.map(\.isDependency))
    }
}
