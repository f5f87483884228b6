import Foundation
import Preload
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// Deltas published with `preload patch` beside a pack on nginx, used by the updater where they
/// are smaller than their entries: the same pack, fewer bytes; a damaged delta never lands; no
/// delta published is the patch as before.
extension PackPatchNginxTests {
    /// `sample-assets` with 5 noise textures baked into `old.bake`, then with those 5 touched up
    /// (4 rows painted over each), 1 added and 1 removed into `new.bake`.
    func bakeTouchedUp() async throws -> (old: String, new: String) {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sample-assets").path
        try FileManager.default.copyItem(atPath: assets, toPath: work.file("assets"))
        let textures = [
            ("sprites/coin.png", 64), ("sprites/hero.png", 64), ("sprites/slime.png", 64), ("tiles/grass_tile.png", 64),
            ("backgrounds/forest.png", 256),
        ]
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        for (version, pack) in ["old.bake", "new.bake"].enumerated() {
            for (number, (name, side)) in textures.enumerated() {
                let seed = UInt64(number) + 700
                try work.write(
                    "assets/" + name,
                    version == 0 ? PNGFixture.noisePNG(side: side, seed: seed) : PNGFixture.touchedUpNoisePNG(side: side, seed: seed, rows: 20..<24))
            }
            if version == 1 {
                try work.write("assets/sprites/bat.png", PNGFixture.noisePNG(side: 48, seed: 800))
                try FileManager.default.removeItem(atPath: work.file("assets/masks/light_mask.png"))
            }
            let report = try await coordinator.preload([.folder(work.file("assets"), name: "assets")], options: PreloadOptions(storesAssets: false))
            try BakeWriter.write(report, to: work.file(pack))
        }
        return (work.file("old.bake"), work.file("new.bake"))
    }

    /// ``bakeTouchedUp()``, the new pack served by nginx as `levels/level1.bake`: the old
    /// pack's path, the new pack's bytes and URL.
    func bakeAndServe() async throws -> (old: String, new: [UInt8], url: String) {
        let (old, new) = try await bakeTouchedUp()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: new)))
        try fixture.serve("levels/level1.bake", bytes)
        return (old, bytes, nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake")
    }

    /// Runs `preload patch OLD PUBLISHED -o FOLDER` (`PUBLISHED`: the new pack as the server
    /// publishes it, in `FOLDER`); returns its output.
    func publishDeltas(_ old: String, _ published: String, into folder: String) async throws -> String {
        let run = try await PreloadChild(["patch", old, published, "-o", folder]).finished()
        #expect(run.status == 0 && run.output.contains(" as deltas, "), "\(run.output)\(run.errors)")
        return run.output
    }

    @Test func publishedDeltasMoveLessThanTheEntriesAndGiveTheSamePack() async throws {
        let (old, newBytes, url) = try await bakeAndServe()
        let updater = PackUpdater(fetcher: try fixture.fetcher())

        // No delta published: the patch as before (the missing delta file is no warning).
        let copy = work.file("copy.bake")
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        let plain = try await updater.check(url, installed: copy)
        let diff = try #require(plain.diff)
        #expect(
            plain.deltas == nil && plain.deltaWarning == nil && plain.bytesToMove == diff.requestedBytes && plain.checkedBytes == diff.outlineBytes)
        let whole = try await updater.apply(plain)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: copy))) == newBytes)
        // The entries' ranges in one multipart answer: its part headers too (the 1.05x bound below).
        #expect(whole.deltaEntries == 0 && whole.networkBytes >= diff.requestedBytes && whole.warnings.isEmpty)
        let movedWithout = plain.checkedBytes + whole.networkBytes
        let changedAndIndex = diff.fetchedEntryBytes + diff.outlineBytes
        #expect(Double(movedWithout) <= 1.05 * Double(changedAndIndex), "\(movedWithout) against \(changedAndIndex)")

        // Deltas published beside the pack: the touched-up entries come as deltas.
        let printed = try await publishDeltas(old, fixture.served.path + "/levels/level1.bake", into: fixture.served.path + "/levels")
        let update = try await updater.check(url, installed: old)
        let deltas = try #require(update.deltas, "\(update.deltaWarning ?? "no deltas")")
        #expect(update.deltaWarning == nil && deltas.entries.count >= 5 && update.bytesToMove == deltas.bytesToMove)
        let done = try await updater.apply(update)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == newBytes)
        #expect(done.deltaEntries == deltas.entries.count && done.deltaEntryBytes == deltas.entryBytes && done.warnings.isEmpty)
        let movedWith = update.checkedBytes + done.networkBytes
        #expect(movedWith < movedWithout, "\(movedWith) with deltas against \(movedWithout) without")
        print(
            "PackUpdater deltas over nginx: pack \(diff.packLength) bytes; changed+new entries \(diff.fetchedEntryBytes) + header+index \(diff.outlineBytes);",
            "moved without deltas \(movedWithout) (\(String(format: "%.3f", Double(movedWithout) / Double(changedAndIndex)))x) in \(2 + plain.deltaCheckRequests + whole.requests) requests,",
            "with deltas \(movedWith) (\(String(format: "%.3f", Double(movedWith) / Double(changedAndIndex)))x, \(String(format: "%.1f", 100 * Double(movedWith) / Double(movedWithout)))% of without)",
            "in \(2 + update.deltaCheckRequests + done.requests) requests: \(done.deltaEntries) entries as \(done.deltaBytes) bytes of deltas instead of \(done.deltaEntryBytes);",
            "preload patch:", printed.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A delta damaged on the server fails its entry's check and that entry is fetched whole
    /// (a warning says so); damaged records are refused at the check (a warning), and the
    /// entries come whole. The pack is the server's either way.
    @Test func aDamagedDeltaNeverLands() async throws {
        let (old, newBytes, url) = try await bakeAndServe()
        let updater = PackUpdater(fetcher: try fixture.fetcher())
        _ = try await publishDeltas(old, fixture.served.path + "/levels/level1.bake", into: fixture.served.path + "/levels")
        let oldHeader = Array(try Array(Data(contentsOf: URL(fileURLWithPath: old))).prefix(BakedFormat.headerSize))
        let deltaPath = fixture.served.path + "/levels/level1.bake.deltas/" + BakedPackDelta.identity(ofPackHeader: oldHeader)
        let file = try Array(Data(contentsOf: URL(fileURLWithPath: deltaPath)))
        let length = try file.withUnsafeBytes { try BakedPackDelta.recordsLength(inHeader: $0) }
        let outline = try file.withUnsafeBytes { bytes in
            try BakedPackDelta(
                header: UnsafeRawBufferPointer(rebasing: bytes[0..<BakedPackDelta.headerSize]),
                records: UnsafeRawBufferPointer(rebasing: bytes[BakedPackDelta.headerSize..<BakedPackDelta.headerSize + Int(length)]))
        }
        let victim = try #require(outline.entries.first)

        var damaged = file
        damaged[Int(victim.delta.lowerBound) + victim.delta.count / 2] ^= 0xFF
        try AtomicFile.write([(deltaPath, damaged)])
        let copy = work.file("copy.bake")
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        let update = try await updater.check(url, installed: copy)
        #expect(update.deltas?.entries.contains { $0.name == victim.name } == true)
        let done = try await updater.apply(update)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: copy))) == newBytes)
        #expect(done.deltaEntries == (update.deltas?.entries.count ?? 0) - 1 && done.warnings.count == 1, "\(done.warnings)")
        #expect(done.warnings.first?.contains(victim.name) == true, "\(done.warnings)")

        var records = file
        records[BakedPackDelta.headerSize + 1] ^= 0xFF
        try AtomicFile.write([(deltaPath, records)])
        let refused = try await updater.check(url, installed: old)
        #expect(refused.deltas == nil && refused.deltaWarning?.contains("damaged") == true, "\(refused.deltaWarning ?? "no warning")")
        let whole = try await updater.apply(refused)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == newBytes && whole.deltaEntries == 0)

        // A delta file with no delta (none was smaller): no deltas, no warning.
        let empty = BakedPackDelta(oldHeader: outline.oldHeader, newHeader: outline.newHeader, entries: [])
        try AtomicFile.write([(deltaPath, empty.outline())])
        let none = try await updater.check(url, installed: copy + ".previous")
        #expect(none.kind == .patch && none.deltas == nil && none.deltaWarning == nil && none.deltaCheckRequests == 1, "\(none.deltaWarning ?? "")")
    }

    /// `preload fetch` of a cached pack with deltas published: its line says how many entries
    /// came as deltas, and the bytes they moved instead of the entries'.
    @Test func preloadFetchSaysWhatCameAsDeltas() async throws {
        let (old, new) = try await bakeTouchedUp()
        try fixture.serve("levels/level1.bake", try Array(Data(contentsOf: URL(fileURLWithPath: old))))
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let first = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(first.status == 0, "\(first.output)\(first.errors)")
        let newBytes = try Array(Data(contentsOf: URL(fileURLWithPath: new)))
        try fixture.serve("levels/level1.bake", newBytes)
        _ = try await publishDeltas(old, fixture.served.path + "/levels/level1.bake", into: fixture.served.path + "/levels")
        let second = try await PreloadChild(["fetch", url, "--cache", fixture.cacheFolder.path]).finished()
        #expect(
            second.status == 0 && second.output.contains("  patched   \(url) (") && second.output.contains(" as deltas, "),
            "\(second.output)\(second.errors)")
        print("preload fetch with deltas:", second.output)
        let entry = try #require(try fixture.cache().entry(for: url))
        #expect(FileManager.default.contents(atPath: try fixture.cache().blobPath(entry)).map(Array.init) == newBytes)
    }

    /// The fault server cuts the pack's entry ranges: each apply that fails keeps what it had,
    /// the entries rebuilt from deltas included, and the deltas are fetched once.
    @Test func aPatchWithDeltasCutMidwayFetchesTheDeltasOnce() async throws {
        let (old, new) = try await bakeTouchedUp()
        let newBytes = try Array(Data(contentsOf: URL(fileURLWithPath: new)))
        try fixture.serve("level1.bake", newBytes)
        _ = try await publishDeltas(old, fixture.served.path + "/level1.bake", into: fixture.served.path)
        let url = fixture.url("drop/level1.bake?after=5000&times=4")
        let updater = PackUpdater(fetcher: try fixture.fetcher(attempts: 1, maxRequests: 1))
        let update = try await updater.check(url, installed: old)
        #expect(update.deltas != nil, "\(update.deltaWarning ?? "no deltas")")
        let checkRequests = try fixture.stats().count
        var failures = 0
        var done: PackUpdateResult?
        for _ in 0..<20 where done == nil {
            do { done = try await updater.apply(update) } catch { failures += 1 }
        }
        let result = try #require(done)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == newBytes)
        let applied = try fixture.stats().dropFirst(checkRequests)
        #expect(failures >= 1 && applied.filter(\.cut).count == failures, "\(failures) failed applies, \(applied.filter(\.cut).count) cuts")
        #expect(applied.filter { $0.path.contains(".deltas/") }.count == 1 && result.resumedBytes > 0, "\(applied.map(\.path))")
    }
}

/// `preload patch`'s errors: a file that is not a pack, a damaged pack, a folder it cannot
/// write, each named, exit status 1, nothing written.
@Suite struct PatchCommandTests {
    @Test func notAPackADamagedPackAndAnUnwritableFolderAreNamed() async throws {
        let work = try TemporaryDirectory("preload-patch-command")
        _ = try work.write("art/hero.png", PNGFixture.noisePNG(side: 16, seed: 1))
        let report = try await PreloadCoordinator(plugins: [PNGLoader()]).preload([.folder(work.file("art"), name: "art")])
        let pack = work.file("level.bake")
        try BakeWriter.write(report, to: pack)
        let text = try work.write("notes.bake", Array("just words, not a pack".utf8))
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: pack)))
        bytes[bytes.count - 3] ^= 0xFF
        let damaged = try work.write("damaged.bake", bytes)
        let blocker = try work.write("blocker", [1])
        for (old, folder, named) in [(text, work.file("out"), text), (damaged, work.file("out"), damaged), (pack, blocker, blocker)] {
            let run = try await PreloadChild(["patch", old, pack, "-o", folder]).finished()
            #expect(run.status == 1 && run.errors.contains(named) && run.output.isEmpty, "\(run.output)\(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: work.file("out")))
        let same = try await PreloadChild(["patch", pack, pack, "-o", work.file("out")]).finished()
        #expect(same.status == 0 && same.output.contains("0 entries of 0 changed as deltas"), "\(same.output)\(same.errors)")
    }

    /// `preload catalog` leaves the deltas published beside a pack out: an updater fetches them,
    /// a group's fetch never does.
    @Test func theCatalogLeavesPublishedDeltasOut() throws {
        let work = try TemporaryDirectory("preload-patch-catalog")
        _ = try work.write("level1/level1.bake", [1, 2, 3])
        _ = try work.write("level1/level1.bake.deltas/1a2b3c4d-3", [4, 5])
        let catalog = try RemoteCatalog.make(folder: work.path, base: "https://example.com/levels")
        #expect(catalog.files.map(\.path) == ["level1/level1.bake"])
    }
}
