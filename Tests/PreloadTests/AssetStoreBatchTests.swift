import Foundation
import PreloadTestSupport
import Testing

@testable import Preload

/// What the store's batch insert (a finished load's assets at once, each name read once, the
/// folders noted while hashing) must keep of the store's rules.
@Suite struct AssetStoreBatchTests {
    /// One insert whose files come from folders in turn (a linked folder, another, the linked
    /// one again) and whose names are not always their paths: each file's real path finds it,
    /// whatever folder came before it in the batch (each change of folder is noted, the
    /// folder of the path, not of the name).
    @Test func realPathsFindEveryFileOfABatchWhoseFoldersAlternate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        for file in ["art/a.png", "art/c.png", "ui/b.png", "ui/d.png"] { try directory.write(file, [1]) }
        try FileManager.default.createSymbolicLink(atPath: directory.file("linked-art"), withDestinationPath: real + "/art")
        try FileManager.default.createSymbolicLink(atPath: directory.file("linked-ui"), withDestinationPath: real + "/ui")
        let store = AssetStore()
        let entries = [
            (name: directory.file("linked-art/a.png"), path: directory.file("linked-art/a.png")),
            (name: "bee", path: directory.file("linked-ui/b.png")),  // named otherwise: its path's folder
            (name: directory.file("linked-art/c.png"), path: directory.file("linked-art/c.png")),
            (name: directory.file("linked-ui/d.png"), path: directory.file("linked-ui/d.png")),
        ]
        store.insert(entries.map { AssetStore.Entry(name: $0.name, path: $0.path, plugin: "x", asset: DataAsset(bytes: [1])) })
        #expect(store.entry(named: real + "/art/a.png")?.name == entries[0].name)
        #expect(store.entry(named: real + "/ui/b.png")?.name == "bee")
        #expect(store.entry(named: real + "/art/c.png")?.name == entries[2].name)
        #expect(store.entry(named: real + "/ui/d.png")?.name == entries[3].name)
        #expect(store.count == 4)
    }

    /// A name stored again in a later insert replaces the asset: its bytes counted once, the
    /// handle the engine returned for the old asset gone, its path index kept.
    @Test func aNameStoredAgainDropsTheOldAssetsHandleAndBytes() {
        let store = AssetStore()
        let old = DataAsset(bytes: [1, 2, 3])
        store.insert([AssetStore.Entry(name: "hero", path: "art/hero.png", plugin: "x", asset: old)])
        store.handedOver(name: "hero", asset: old, handle: 42, replacement: nil)
        #expect(store.handle(named: "hero", as: Int.self) == 42)
        store.insert([AssetStore.Entry(name: "hero", path: "art/hero.png", plugin: "x", asset: DataAsset(bytes: [9]))])
        #expect(store.handle(named: "hero", as: Int.self) == nil, "a new asset: not handed over yet")
        #expect(store.byteCount == 1 && store.count == 1)
        #expect((store.asset(atPath: "./art/hero.png") as? DataAsset)?.bytes.array == [9])
    }

    /// A request whose name is its path as another string (the same characters) is stored as
    /// one whose name is its path: found by either, its entry's path its name.
    @Test func aNameEqualToItsPathInAnotherStringIsItsPath() {
        let store = AssetStore()
        let path = "art/hero.png"
        let name = String(decoding: Array(path.utf8), as: UTF8.self)
        store.insert([AssetStore.Entry(name: name, path: path, plugin: "x", asset: DataAsset(bytes: [1]))])
        #expect(store.entry(named: "art/hero.png")?.path == "art/hero.png")
        #expect(store.asset(atPath: "art/./hero.png") != nil)
    }
}
