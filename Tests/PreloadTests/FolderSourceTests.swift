import Foundation
import Preload
import PreloadTestSupport
import Testing

/// Text files held in memory, owned below `root`: a real folder on disk, so that a batch that
/// walked the disk for the source's folder would find other files there (and load them).
struct MemoryTexts: AssetSource {
    let root: String
    /// The source's files by path (each below `root`), and their texts.
    let texts: [String: String]
    /// What each call to `prepare` was asked for, in order.
    let prepared = Locked<[[String]]>([])

    func owns(_ path: String) -> Bool { path == root || path.hasPrefix(root + "/") }

    func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>] {
        prepared.withLock { $0.append(files.map(\.path)) }
        return files.map { texts[$0.path] == nil ? .failure(Self.missing($0.path)) : .success(PreparedFile()) }
    }

    func facts(of path: String) throws(AssetError) -> FileFacts {
        guard let text = texts[path] else { throw Self.missing(path) }
        return FileFacts(sourcePath: path, size: Int64(text.utf8.count))
    }

    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        guard let text = texts[path] else { throw Self.missing(path) }
        return AssetBytes(Array(text.utf8))
    }

    /// Every file below `folder`, from the index: no disk.
    func files(under folder: String) throws -> [String] {
        let prefix = folder + "/"
        let names = texts.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        guard !names.isEmpty else { throw AssetError(path: folder, category: .fileNotFound, reason: "no such folder in memory") }
        return names.sorted()
    }

    static func missing(_ path: String) -> AssetError {
        AssetError(path: path, category: .fileNotFound, reason: "not in memory")
    }
}

/// The same files from a source that lists no folders (as URLs over HTTP): `files(under:)` is
/// the protocol's default.
struct UnlistedTexts: AssetSource {
    let texts: MemoryTexts

    func owns(_ path: String) -> Bool { texts.owns(path) }
    func facts(of path: String) throws(AssetError) -> FileFacts { try texts.facts(of: path) }
    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        try texts.read(path, limit: limit, memory: memory, isCancelled: isCancelled, progress: progress)
    }
}

/// A folder request is a question to the source that owns its path (docs/architecture.md,
/// "Sources and remote files"): a source that lists folders answers from its index, one that
/// lists none fails the request by name; neither is a walk of the disk.
@Suite struct FolderSourceTests {
    let directory: TemporaryDirectory
    let source: MemoryTexts

    init() throws {
        directory = try TemporaryDirectory()
        // On disk, where the source's folder is: what a walk of the disk would load.
        try directory.write("level/disk.txt", text: "on disk")
        try directory.write("level/sub/disk.txt", text: "on disk")
        let root = directory.file("level")
        source = MemoryTexts(
            root: root,
            texts: [
                root + "/b.txt": "b", root + "/a.txt": "a", root + "/sub/c.txt": "c", root + "/.hidden.txt": "hidden",
                root + "/sub/.cache/d.txt": "hidden", root + "/notes.bin": "no plugin claims this",
            ])
    }

    @Test func aSourcesFolderLoadsTheFilesTheSourceListsNotTheDisks() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(sources: [source]))
        let report = try await coordinator.preload([.folder(directory.file("level"), name: "lvl")])
        let root = directory.file("level")
        #expect(report.everythingLoaded, "\(report.errors)")
        // In the source's order, named as the folder request names them; hidden names left out.
        #expect(report.loaded.map(\.request.path) == [root + "/a.txt", root + "/b.txt", root + "/sub/c.txt"])
        #expect(report.loaded.map(\.request.name) == ["lvl/a.txt", "lvl/b.txt", "lvl/sub/c.txt"])
        #expect(report.skippedPaths == [root + "/notes.bin"])
        #expect(coordinator.assets.asset(named: "lvl/sub/c.txt", as: TextAsset.self)?.text == "c")
        // The files it listed were prepared by it in one call, after nothing else.
        #expect(source.prepared.withLock { $0 } == [[root + "/a.txt", root + "/b.txt", root + "/sub/c.txt"]])
    }

    @Test func aFolderOfASourceThatListsNoFoldersFailsByNameAndNothingElse() async throws {
        let unlisted = UnlistedTexts(texts: source)
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(sources: [unlisted]))
        let folder = directory.file("level")
        let report = try await coordinator.preload([.folder(folder), AssetRequest(path: folder + "/a.txt")])
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.path == folder && error.category == .unsupported, "\(report.errors)")
        #expect(error.reason == "cannot list a folder of UnlistedTexts: the source lists no folders; request its files by name")
        // Nothing from the disk below it, and the file named on its own loads.
        #expect(report.loaded.map(\.request.path) == [folder + "/a.txt"])
        #expect(report.skippedPaths.isEmpty)
    }

    @Test func aSourcesMissingFolderFailsByItsPath() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(sources: [source]))
        let folder = directory.file("level/none/")
        let report = try await coordinator.preload([.folder(folder)])
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.path == folder && error.category == .fileNotFound, "\(report.errors)")
    }

    @Test func aFolderRequestForASourcesFileNamesThatFile() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(sources: [source]))
        let file = directory.file("level/a.txt")
        let report = try await coordinator.preload([.folder(file, name: "first")])
        #expect(report.everythingLoaded && report.loaded.map(\.request.name) == ["first"], "\(report.errors)")
    }
}
