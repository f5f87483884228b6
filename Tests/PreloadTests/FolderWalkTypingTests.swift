import Foundation
import PreloadTestSupport
import Testing

@testable import Preload

/// The folder walk types entries by what `readdir` reports: a regular file or a folder is taken at
/// its word, with no `stat` of its own (20,000 files, 20,000 calls saved), and only symbolic links
/// and entries of unknown type (`DT_UNKNOWN`, which some file systems report for everything) are
/// `lstat`ed.
@Suite struct FolderWalkTypingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `readdir`'s type is trusted: an entry it calls a regular file is listed as one without a
    /// look of its own (a path that does not exist shows that nothing looked), and one it calls a
    /// folder is walked next.
    @Test func aTypedEntryIsTakenWithoutAStat() {
        var walk = FolderWalk()
        walk.add(directory.file("gone.png"), type: UInt8(DT_REG), isAssetFolder: { _ in false })
        walk.add(directory.file("gone-folder"), type: UInt8(DT_DIR), isAssetFolder: { _ in false })
        #expect(walk.files == [directory.file("gone.png")] && walk.unreadable.isEmpty, "no stat: nothing to find missing")
        #expect(walk.folders == [directory.file("gone-folder")])
    }

    /// An entry of unknown type is typed by `lstat`, as a link is: a file is kept, a folder
    /// walked, an asset folder kept as a file, a link to a file (or to nothing) kept, a link to a
    /// folder and a FIFO skipped with what they are, a vanished entry unreadable.
    @Test func anEntryOfUnknownTypeIsTypedByLstat() throws {
        let file = try directory.write("level/hero.png", [1])
        try directory.write("level/sub/boss.png", [2])
        try directory.write("level/hero.atlas/1.png", [3])
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/link.png"), withDestinationPath: file)
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/dangling.png"), withDestinationPath: directory.file("nowhere"))
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/folder-link"), withDestinationPath: directory.file("level/sub"))
        #expect(mkfifo(directory.file("level/pipe.png"), 0o644) == 0)
        var walk = FolderWalk()
        let names = ["hero.png", "sub", "hero.atlas", "link.png", "dangling.png", "folder-link", "pipe.png", "vanished.png"]
        for name in names {
            walk.add(directory.file("level/" + name), type: UInt8(DT_UNKNOWN), isAssetFolder: FolderDiscovery.isAssetFolder)
        }
        #expect(walk.files == ["hero.png", "hero.atlas", "link.png", "dangling.png"].map { directory.file("level/" + $0) })
        #expect(walk.folders == [directory.file("level/sub")])
        #expect(walk.notFiles.map(\.path) == [directory.file("level/folder-link"), directory.file("level/pipe.png")])
        #expect(walk.notFiles.map(\.reason) == ["a symbolic link to a folder (not followed)", "a FIFO (named pipe), not a file"])
        #expect(walk.unreadable.map(\.path) == [directory.file("level/vanished.png")])
    }

    /// The whole walk, on a real folder (whose file system types its entries): links are looked
    /// at, the rest are not, and the result is what the types say.
    @Test func theWalkListsFilesLinksAndFolders() throws {
        let file = try directory.write("level/hero.png", [1])
        try directory.write("level/sub/boss.png", [2])
        try directory.write("level/hero.atlas/1.png", [3])
        try directory.write("level/.hidden.png", [4])
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/link.png"), withDestinationPath: file)
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/folder-link"), withDestinationPath: directory.file("level/sub"))
        let walk = FolderWalk.walk(directory.file("level"), threads: 2, isAssetFolder: FolderDiscovery.isAssetFolder)
        #expect(
            walk.files.sorted() == ["hero.atlas", "hero.png", "link.png", "sub/boss.png"].map { directory.file("level/" + $0) })
        #expect(walk.notFiles.map(\.path) == [directory.file("level/folder-link")] && walk.unreadable.isEmpty)
        #expect(Set(walk.directories) == [directory.file("level"), directory.file("level/sub")])
    }

    /// Each folder's files come sorted as their paths sort (the walk sorts names, and makes the
    /// paths of regular files only then): links and asset folders, typed apart from regular files,
    /// take their places among them, and the whole list, sorted once more by the caller, is in
    /// `String` order even where one folder's files fall between another's (`a-b/` before `a/`).
    @Test func eachFoldersFilesComeInTheOrderOfTheirPaths() throws {
        for name in ["b.png", "B.png", "é.png", "e\u{301}x.png", "a10.png", "a9.png", "z.png"] { try directory.write("level/a/" + name, [1]) }
        try directory.write("level/a/m.atlas/1.png", [2])
        try directory.write("level/a-b/x.png", [3])
        try directory.write("level/a/b/y.png", [4])
        try FileManager.default.createSymbolicLink(atPath: directory.file("level/a/k.png"), withDestinationPath: directory.file("level/a/z.png"))
        let walk = FolderWalk.walk(directory.file("level"), threads: 2, isAssetFolder: FolderDiscovery.isAssetFolder)
        let inA = walk.files.filter { $0.hasPrefix(directory.file("level/a/")) && !$0.dropFirst(directory.file("level/a/").count).contains("/") }
        #expect(inA == inA.sorted() && inA.count == 9)
        #expect(DiskSource().walk(directory.file("level"), threads: 2, isAssetFolder: FolderDiscovery.isAssetFolder).files == walk.files.sorted())
    }
}
