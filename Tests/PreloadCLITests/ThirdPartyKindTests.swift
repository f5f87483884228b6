import Foundation
import Preload
import PreloadAuthoring
@testable import PreloadCLI
import PreloadTestSupport
import Testing

/// A kind of asset the command has never heard of, written against the public API only (a
/// palette: `.pal` files of `#rrggbb` lines), shows in `--json` and `--verbose` with what it says
/// about itself and its checksum, and is exported as its swatches (a PNG) and a GIMP palette:
/// the command and the exporter hold no per-kind code (`DescribedAsset`, `ExportableAsset`).
@Suite struct ThirdPartyKindTests {
    struct Palette: DescribedAsset, ExportableAsset {
        var name: String
        var colors: [UInt32]

        var kind: AssetKind { "palette" }
        var byteCount: Int { colors.count * 4 }

        /// RGBA, one pixel a color.
        var rgba: [UInt8] { colors.flatMap { [UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF), 255] } }

        var checksummedParts: [ChecksummedPart] {
            let rgba = rgba
            return [ChecksummedPart { AssetBytes(rgba) }]
        }

        func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
            AssetDescription(
                fields: [
                    "palette": .string(name), "colors": .array(colors.map { .string("#" + String($0, radix: 16)) }),
                    "kind": "not the entry's own kind", "name": .string(name),  // the entry's own names: kept as palette.kind, palette.name
                ],
                summary: "palette '\(name)', \(AssetDescription.counted(colors.count, "color"))", brief: "\(colors.count) colors")
        }

        func export(as name: String, into folder: any ExportFolder) throws {
            folder.write(Texture(width: colors.count, height: 1, pixelFormat: .rgba8, alphaMode: .straight, pixels: rgba), named: name)
            let lines = ["GIMP Palette", "Name: \(self.name)"] + colors.map { "\($0 >> 16 & 0xFF) \($0 >> 8 & 0xFF) \($0 & 0xFF)" }
            try folder.writeFile(named: name, extension: "gpl", counted: ExportLabel(noun: "palette", format: "GPL")) {
                [AssetBytes(Array((lines.joined(separator: "\n") + "\n").utf8))]
            }
        }
    }

    struct PaletteLoader: LoaderPlugin {
        var identifier: String { "palette" }
        var assetKind: AssetKind { "palette" }
        var fileExtensions: Set<String> { ["pal"] }

        func load(_ context: LoadContext) throws -> any Asset {
            let text = String(decoding: try context.readContents().withUnsafeBytes { Array($0) }, as: UTF8.self)
            let colors = text.split(separator: "\n").compactMap { UInt32($0.dropFirst(), radix: 16) }
            return Palette(name: String(AssetPath.fileName(of: context.request.path).dropLast(4)), colors: colors)
        }
    }

    let directory: TemporaryDirectory
    let report: PreloadReport
    let registry: PluginRegistry

    init() async throws {
        directory = try TemporaryDirectory()
        try directory.write("art/dawn.pal", text: "#ff8800\n#102030\n#ffffff\n")
        var registry = PluginRegistry()
        try registry.register(PaletteLoader())
        self.registry = registry
        report = try await PreloadCoordinator(registry: registry).preload([.folder(directory.file("art"))])
    }

    @Test func itIsDescribedInTheJSONWithItsChecksum() throws {
        let requested = Array(report.results)
        let packs = PackContents(report: report, requested: requested)
        let document = JSONDocument(
            report: report, requested: requested, registry: registry, digests: AssetDigests.compute(for: requested), packs: packs,
            warnings: ShownWarnings(report: report, requested: requested, packs: packs))
        let json = try #require(try JSONSerialization.jsonObject(with: try document.encoded()) as? [String: Any])
        let entry = try #require((json["assets"] as? [[String: Any]])?.first)
        #expect(entry["kind"] as? String == "palette" && entry["plugin"] as? String == "palette" && entry["status"] as? String == "loaded")
        #expect(entry["palette"] as? String == "dawn" && entry["colors"] as? [String] == ["#ff8800", "#102030", "#ffffff"])
        // Fields named like the entry's own are kept, under the kind's name: none is lost.
        #expect(entry["palette.kind"] as? String == "not the entry's own kind" && entry["palette.name"] as? String == "dawn")
        #expect(entry["name"] == nil, "the entry's own name: the request gave none other than its path")
        let rgba: [UInt8] = [0xFF, 0x88, 0x00, 255, 0x10, 0x20, 0x30, 255, 0xFF, 0xFF, 0xFF, 255]
        #expect(entry["sha256"] as? String == AssetDigests.sha256(AssetBytes(rgba)) && entry["bytes"] as? Int == 12)
    }

    @Test func aDescribedFieldNamedLikeTheEntrysOwnGoesUnderItsKindAgainWhileTaken() {
        let own: Set<String> = ["name", "kind", "bytes"]
        let described: DescriptionFields = ["name": "dawn", "palette.name": "taken", "colors": 3]
        let key = { (name: String) in JSONDocument.AssetEntry.key(ofDescribed: name, kind: "palette", own: own, described: described) }
        #expect(key("colors") == "colors" && key("palette.name") == "palette.name")
        #expect(key("name") == "palette.palette.name" && key("bytes") == "palette.bytes")
    }

    @Test func itIsDescribedInTheVerboseSummary() throws {
        let results = report.results
        let requested = Array(results)
        let packs = PackContents(report: report, requested: requested)
        let summary = Summary(
            report: report, counts: results.outcomeCounts, failures: results.failed, requested: requested, digests: [:], packs: packs,
            warnings: ShownWarnings(report: report, requested: requested, packs: packs), verbose: true)
        let line = try #require(summary.text.split(separator: "\n").first { $0.hasPrefix("  ok    ") })
        #expect(line.hasPrefix("  ok    \(directory.file("art/dawn.pal"))  palette 'dawn', 3 colors  12 B  "), "\(line)")
    }

    @Test func itIsExportedAsItsKindWritesIt() throws {
        let out = directory.file("out")
        let exported = try AssetExporter.write(report, to: out)
        let name = directory.file("art/dawn.pal")
        #expect(exported.description == "Exported 1 texture and 1 palette (GPL)")
        #expect(exported.textures.files == [out + name + ".png"] && exported.files.map(\.path) == [out + name + ".gpl"])
        #expect(try String(contentsOfFile: out + name + ".gpl", encoding: .utf8) == "GIMP Palette\nName: dawn\n255 136 0\n16 32 48\n255 255 255\n")
        #expect(FileManager.default.fileExists(atPath: out + name + ".png"))
    }
}
