import Foundation
import Preload
import PreloadTestSupport
import Testing

/// Nothing below a folder request is lost without a word: a folder the walk cannot list fails
/// by its path, and an entry that is not a file is skipped with what it is.
@Suite struct FolderWalkTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `opendir` fails for root too when the folder's path is longer than `PATH_MAX` (root
    /// reads a `chmod 000` folder, so a permission test would pass without the check; the
    /// command's tests drop root's override for that, `UnreadableFolderTests`).
    @Test func aFolderTheWalkCannotListFailsByItsPath() async throws {
        try directory.write("level/hero.txt", text: "hero")
        let deep = try DeepFolder(in: directory.file("level"), beyond: Int(PATH_MAX))
        defer { deep.remove() }
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload([.folder(directory.file("level"))])
        #expect(report.loaded.map(\.request.path) == [directory.file("level/hero.txt")])
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.category == .unreadable, "\(report)")
        #expect(error.path.hasPrefix(directory.file("level/")) && error.path.utf8.count >= Int(PATH_MAX), "the first folder it cannot open")
        #expect(error.reason == "cannot be read (File name too long): its files would be missing", "\(error)")
        #expect(!report.everythingLoaded)
    }

    @Test func entriesThatAreNotFilesAreSkippedWithWhy() async throws {
        try directory.write("level/hero.txt", text: "hero")
        try directory.write("elsewhere/other.txt", text: "not reached through a link")
        #expect(mkfifo(directory.file("level/pipe.txt"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/linked"), withDestinationPath: directory.file("elsewhere"))
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let report = try await coordinator.preload([.folder(directory.file("level"))])
        #expect(report.everythingLoaded && report.loaded.map(\.request.path) == [directory.file("level/hero.txt")])
        #expect(report.skippedPaths == [directory.file("level/linked"), directory.file("level/pipe.txt")])
        #expect(
            report.skipReasons == [
                directory.file("level/linked"): "a symbolic link to a folder (not followed)",
                directory.file("level/pipe.txt"): "a FIFO (named pipe), not a file",
            ])
    }
}

/// Folders nested until their path is longer than `length` bytes, made and removed through
/// descriptors (no call that takes the whole path could).
private struct DeepFolder {
    private let name = String(repeating: "d", count: 250)
    private var descriptors: [Int32] = []

    init(in parent: String, beyond length: Int) throws {
        var descriptor = open(parent, O_RDONLY | O_DIRECTORY)
        var pathLength = parent.utf8.count
        while pathLength <= length {
            guard descriptor >= 0, mkdirat(descriptor, name, 0o755) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            descriptors.append(descriptor)
            descriptor = openat(descriptor, name, O_RDONLY | O_DIRECTORY)
            pathLength += 1 + name.utf8.count
        }
        close(descriptor)
    }

    /// Removes the folders, deepest first.
    func remove() {
        for descriptor in descriptors.reversed() {
            unlinkat(descriptor, name, AT_REMOVEDIR)
            close(descriptor)
        }
    }
}
