import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadTestSupport
import Testing

/// A pack's table of kinds is open: a kind defined outside Preload, with the public API only,
/// bakes and loads back; an entry of a kind no registered plugin reads fails alone, by name; a
/// version 1 pack (kinds numbered by the fixed table) still loads.
@Suite struct BakedOpenKindsTests {
    @Test func aThirdPartyKindBakesAndLoadsBackWithItsPage() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await Self.bakeSwatches(in: directory)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), SwatchLoader(), BakedPackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.request.name) == ["art/a.png", "art/warm.swatch"], "the made page is its swatch's alone")
        let swatch = try #require(coordinator.assets.asset(named: "art/warm.swatch", as: Swatch.self))
        #expect(swatch.colors == [[255, 128, 0, 255], [10, 20, 30, 255]])
        #expect(swatch.page.width == 2 && swatch.page.height == 1 && swatch.page.pixels == [255, 128, 0, 255, 10, 20, 30, 255])
        #expect(swatch.page.pixels.isMapped, "its page is a view into the pack, as a core texture's is")
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        #expect(index.header.version == 2 && Set(index.metadata.kinds) == ["texture", "swatch"], "\(index.metadata.kinds)")
        #expect(index.entries.map(\.kind) == ["texture", "swatch", "texture"])
        #expect(try #require(report.results.last).warnings.map(\.code.rawValue) == ["swatch.short"], "its warning, kept in the pack")
    }

    @Test func anEntryOfAKindNoPluginReadsFailsAloneByName() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await Self.bakeSwatches(in: directory)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BakedPackLoader()])  // no SwatchLoader
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.loaded.map(\.request.name) == ["art/a.png"], "the texture loads")
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.path == pack + "#art/warm.swatch" && error.category == .unsupported, "\(error)")
        #expect(error.reason.contains("entry 'art/warm.swatch' is a 'swatch' entry: no registered plugin reads it"), "\(error.reason)")
        #expect(error.underlying as? BakedPackError == .unreadableKind(entry: "art/warm.swatch", kind: "swatch"))
    }

    @Test func aVersionOnePackStillLoads() async throws {
        let directory = try TemporaryDirectory()
        let version2 = try await BakedFixtures.smallPack(in: directory)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: version2)))
        let version1 = try directory.write("old.bake", try PackSurgery(bytes).asVersionOne())
        let index = try FileMapping(path: version1).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        #expect(index.header.version == 1 && index.metadata.kinds == BakedFormat.versionOneKinds)
        #expect(index.entries.map(\.record.kind) == [1, 1, 1, 3], "version 1's numbers: texture, data")
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: version1)])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.request.name) == ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"])
        #expect(try #require(coordinator.assets.texture(named: "art/b.png")).pixels == Array(0..<12))
    }

    @Test func aNonBakeableAssetFailsTheBakeNamingIt() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("art/odd.swatch", text: "1 2 3 4")
        let report = try await PreloadCoordinator(plugins: [SwatchLoader(bakeable: false)]).preload([
            AssetRequest(path: directory.file("art/odd.swatch"), name: "art/odd.swatch")
        ])
        #expect(throws: BakeWriter.BakeError.self) { try BakeWriter.write(report, to: directory.file("odd.bake")) }
        do {
            try BakeWriter.write(report, to: directory.file("odd.bake"))
        } catch {
            #expect("\(error)".contains("art/odd.swatch: its kind, swatch, has no baked form"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("odd.bake")))
    }

    /// A PNG and a swatch (two colours, so a page made at load), baked; returns the pack's path.
    static func bakeSwatches(in directory: TemporaryDirectory) async throws -> String {
        try directory.write("art/a.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        try directory.write("art/warm.swatch", text: "255 128 0 255\n10 20 30")
        let loose = try PreloadCoordinator(plugins: [PNGLoader(), SwatchLoader()])
        let report = try await loose.preload([.folder(directory.file("art"), name: "art")], options: PreloadOptions(storesAssets: false))
        #expect(report.everythingLoaded, "\(report.errors)")
        let pack = directory.file("swatches.bake")
        let summary = try BakeWriter.write(report, to: pack)
        #expect(summary.count(ofKind: "swatch") == 1 && summary.packedPages == 1, "\(summary)")
        #expect(summary.description.hasPrefix("Baked 3 entries (1 texture, 1 colour swatch, 1 page made at load)"), "\(summary)")
        return pack
    }
}

/// A third party's kind, made with the public API only: a list of RGBA colours and a texture of
/// them side by side, made at load (a page of its own in the pack).
struct Swatch: BakeableAsset {
    var colors: [[UInt8]]
    var page: Texture

    var kind: AssetKind { "swatch" }
    var byteCount: Int { page.byteCount }

    static var bakedKind: String { "swatch" }
    static var bakedNouns: (singular: String, plural: String) { ("colour swatch", "colour swatches") }

    func bakedPages() throws -> [BakedPage] { [BakedPage(path: "swatch-page", texture: page)] }

    func baked(pageEntries: [Int]) throws -> BakedEntry {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(UInt32(pageEntries[0]))
        return BakedEntry(bytes: AssetBytes(bytes + colors.flatMap { $0 }))
    }

    static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        guard entry.bytes.count >= 4, (entry.bytes.count - 4) % 4 == 0 else { throw entry.malformed("a swatch of \(entry.bytes.count) bytes") }
        let page = try entry.page(Int(entry.bytes.withUnsafeBytes { $0.littleEndian(at: 0, as: UInt32.self) }), path: "swatch-page")
        let colors = stride(from: 4, to: entry.bytes.count, by: 4).map { Array(entry.bytes[$0..<$0 + 4]) }
        return Swatch(colors: colors, page: page)
    }
}

/// A swatch that cannot bake (its type is not a `BakeableAsset`).
struct PlainSwatch: Asset {
    var kind: AssetKind { "swatch" }
    var byteCount: Int { 0 }
}

/// Loads `.swatch` files: lines of 3 or 4 numbers (alpha 255 when left out, with a warning).
struct SwatchLoader: BakingPlugin {
    var bakeable = true

    var identifier: String { "swatch" }
    var assetKind: AssetKind { "swatch" }
    var fileExtensions: Set<String> { ["swatch"] }
    var bakedAssetTypes: [any BakeableAsset.Type] { [Swatch.self] }

    func load(_ context: LoadContext) throws -> any Asset {
        guard bakeable else { return PlainSwatch() }
        let text = String(decoding: try context.readContents().array, as: UTF8.self)
        var colors: [[UInt8]] = []
        for line in text.split(separator: "\n") {
            var color = line.split(separator: " ").compactMap { UInt8($0) }
            if color.count == 3 {
                try context.warn(AssetWarning("swatch.short", "a colour without alpha: 255"))
                color.append(255)
            }
            colors.append(color)
        }
        let page = Texture(width: colors.count, height: 1, pixelFormat: .rgba8, alphaMode: .straight, pixels: colors.flatMap { $0 })
        return Swatch(colors: colors, page: page)
    }
}

extension PackSurgery {
    /// The pack as version 1 wrote it: kinds numbered by the fixed table, the metadata the
    /// warnings object alone.
    func asVersionOne() throws -> [UInt8] {
        let text = Data(strings[Int(metadata.lowerBound)..<Int(metadata.upperBound)])
        let object = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        let kinds = try #require(object["kinds"] as? [String])
        var old = self
        for record in records.indices {
            let name = kinds[Int(records[record][62]) - 1]
            old.index(record: record) { $0[62] = UInt8(BakedFormat.versionOneKinds.firstIndex(of: name)! + 1) }
        }
        if let warnings = object["warnings"] {
            let table = try JSONSerialization.data(withJSONObject: warnings, options: [.sortedKeys])
            old.metadata = UInt32(old.strings.count)..<UInt32(old.strings.count + table.count)
            old.strings += table
        } else {
            old.metadata = 0..<0
        }
        old.version = 1
        return old.sealed()
    }
}
