import Foundation
import Preload
import PreloadFont
import PreloadTestSupport
import PreloadTrueType
import Testing

/// A damaged, truncated or foreign file fails by name (FreeType's error named as FreeType names
/// it, or the table the file ends before), never with a crash.
@Suite struct DamagedTrueTypeTests {
    static let font = { [UInt8](try! Data(contentsOf: URL(fileURLWithPath: TrueTypeFixtures.sampleFont))) }()

    /// Loads `bytes` as `name` through a coordinator: its one result.
    private func load(_ bytes: [UInt8], as name: String = "font.ttf") async throws -> AssetResult {
        let directory = try TemporaryDirectory("damaged-truetype")
        return try await TrueTypeFixtures.load(try directory.write(name, bytes))
    }

    /// The table directory's record of `tag`: its offset and length.
    private func table(_ tag: String) throws -> (offset: Int, length: Int) {
        let font = Self.font
        let count = Int(font[4]) << 8 | Int(font[5])
        let record = try #require((0..<count).map { 12 + 16 * $0 }.first { Array(font[$0..<$0 + 4]) == Array(tag.utf8) })
        let read = { (at: Int) in font[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (read(record + 8), read(record + 12))
    }

    @Test func aTruncatedFontFailsNamingWhereItEnds() async throws {
        let kern = try table("kern")
        let cases: [(cut: Int, says: String)] = [
            (
                12,
                "truncated font: the table directory lists 18 tables and ends at byte 300; the file ends at byte 12 "
                    + "(FreeType: FT_Err_Invalid_Stream_Operation (0x55: invalid stream operation))"
            ),
            (
                1000,
                "truncated font: table 'GDEF' ends at byte 49340; the file ends at byte 1000 "
                    + "(FreeType: FT_Err_Unknown_File_Format (0x02: unknown file format))"
            ),
            // FreeType itself would open this one and drop the tables it lacks (the kerning, the layout tables).
            (kern.offset + 10, "truncated font: table 'GDEF' ends at byte 49340; the file ends at byte \(kern.offset + 10)"),
            (Self.font.count - 1, "truncated font: table 'GSUB' ends at byte \(Self.font.count); the file ends at byte \(Self.font.count - 1)"),
        ]
        for (cut, says) in cases {
            let result = try await load(Array(Self.font.prefix(cut)))
            #expect(TrueTypeFixtures.failure(result).hasSuffix("font.ttf: \(says)"), "\(TrueTypeFixtures.failure(result))")
            #expect(result.outcome.error?.category == .truncated)
        }
        let empty = try await load([])
        #expect(TrueTypeFixtures.failure(empty).hasSuffix("font.ttf: empty file, not a font") && empty.outcome.error?.category == .truncated)
    }

    @Test func aDamagedTableFailsWithFreeTypesErrorByName() async throws {
        var damaged = Self.font
        let head = try table("head")
        for index in head.offset..<head.offset + head.length { damaged[index] = 0xFF }
        let broken = try await load(damaged)
        #expect(
            TrueTypeFixtures.failure(broken).hasSuffix("FreeType's FT_New_Memory_Face failed: FT_Err_Invalid_Table (0x08: broken table)"),
            "\(TrueTypeFixtures.failure(broken))")
        #expect(broken.outcome.error?.category == .corrupt)
        #expect(broken.outcome.error?.underlying as? TrueTypeFontError == .freeType(function: "FT_New_Memory_Face", code: 8, detail: ""))

        // Hinting instructions that are not instructions: the first glyph hinted fails, named.
        damaged = Self.font
        let prep = try table("prep")
        for index in prep.offset..<prep.offset + 64 { damaged[index] = 0 }
        let unhintable = try await load(damaged)
        #expect(
            TrueTypeFixtures.failure(unhintable).hasSuffix(
                "FreeType's FT_Load_Glyph failed for character 32: FT_Err_Invalid_Opcode (0x80: invalid opcode)"),
            "\(TrueTypeFixtures.failure(unhintable))")
    }

    @Test func somethingElseNamedTTFIsNotAFont() async throws {
        // FreeType tries every driver; the last one's complaint is what it returns.
        let text = try await load(Array("hello, world: no font at all\n".utf8))
        #expect(
            TrueTypeFixtures.failure(text).hasSuffix(
                "font.ttf: FreeType's FT_New_Memory_Face failed: FT_Err_Invalid_Stream_Operation (0x55: invalid stream operation)"),
            "\(TrueTypeFixtures.failure(text))")
        #expect(text.outcome.error?.category == .corrupt)
        // A TrueType signature and a directory of no tables: FreeType finds no font in it.
        let hollow = try await load([0, 1, 0, 0] + [UInt8](repeating: 0, count: 1020))
        #expect(
            TrueTypeFixtures.failure(hollow).hasSuffix(
                "FreeType's FT_New_Memory_Face failed: FT_Err_Unknown_File_Format (0x02: unknown file format)"),
            "\(TrueTypeFixtures.failure(hollow))")
        #expect(TrueTypeFontError.name(ofFreeTypeError: 0xEE) == "FreeType error 0xEE")
        #expect(TrueTypeFontError.name(ofFreeTypeError: 0x17) == "FT_Err_Invalid_Pixel_Size (0x17: invalid pixel size)")
    }

    /// Bytes changed at random all over the file: each copy loads or fails with a typed error.
    @Test func randomDamageNeverCrashes() throws {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let options = TrueTypeFontLoaderSettings(pixelSize: 16, characters: "AVa0 ")
        var outcomes: [String: Int] = [:]
        for _ in 0..<300 {
            var damaged = Self.font
            for _ in 0..<(1 + next(8)) { damaged[next(damaged.count)] = UInt8(next(256)) }
            do {
                _ = try TrueTypeFontLoader.load(AssetBytes(damaged), options: options)
                outcomes["loaded", default: 0] += 1
            } catch let error as TrueTypeFontError {
                outcomes["\(error.category)", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 300 && outcomes["loaded", default: 0] > 0, "\(outcomes)")
    }
}
