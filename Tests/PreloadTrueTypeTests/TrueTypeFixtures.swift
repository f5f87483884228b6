import Foundation
import Preload
import PreloadFont
import PreloadRemote
import PreloadTrueType
import Testing

/// The fonts `make_fixtures.py` wrote (the sample game's DejaVu Sans subset, a two-face
/// collection) and what FreeType renders from them, computed through ctypes without the plugin
/// (`Fixtures/expected.json`).
enum TrueTypeFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    /// The repository's root, where `sample-assets` is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// DejaVu Sans, Latin-1.
    static let sampleFont = root.appendingPathComponent("sample-assets/fonts/DejaVuSans.ttf").path
    /// DejaVu Sans and DejaVu Sans Bold, a few characters each.
    static let pair = folder.appendingPathComponent("pair.ttc").path

    /// One bitmap as FreeType gave it.
    struct Bitmap: Decodable, Sendable {
        let width: Int, rows: Int, left: Int, top: Int, advance: Int, sha256: String
    }

    /// One character: its glyph index (0 when the face lacks it) and, when it has one, its bitmap.
    struct Glyph: Decodable, Sendable {
        let code: UInt32, glyph: Int
        let width: Int?, rows: Int?, left: Int?, top: Int?, advance: Int?, sha256: String?
        var bitmap: Bitmap? {
            guard let width, let rows, let left, let top, let advance, let sha256 else { return nil }
            return Bitmap(width: width, rows: rows, left: left, top: top, advance: advance, sha256: sha256)
        }
    }

    struct Pair: Decodable, Sendable {
        let first: Int64, second: Int64, amount: Int
    }

    /// One case: a font, a face, a size and a hinting, and what FreeType made of each character.
    struct Case: Decodable, Sendable {
        let font: String, face: Int, size: Int, hinting: String, characters: [UInt32]
        let family: String, bold: Bool, italic: Bool, lineHeight: Int, base: Int
        let glyphs: [Glyph], notdef: Bitmap, kerning: [Pair]

        /// The plugin's options for this case.
        var options: TrueTypeFontLoaderSettings {
            var options = TrueTypeFontLoaderSettings(
                pixelSize: size, characters: TrueTypeCharacters(ranges: characters.map { Unicode.Scalar($0)!...Unicode.Scalar($0)! }))
            options.faceIndex = face
            options.hinting = hinting == "mono" ? .normal : TrueTypeFontLoaderSettings.Hinting(rawValue: hinting)!
            options.isAntialiased = hinting != "mono"
            return options
        }
        var path: String { TrueTypeFixtures.root.appendingPathComponent(font).path }
    }

    static let cases: [String: Case] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode([String: Case].self, from: data)
    }()

    static func sha256<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        (try? SHA256.hash(data: bytes))?.hexString ?? "(libcrypto missing)"
    }

    /// Loads `path` with `options` through a coordinator with the TrueType plugin: its result.
    static func load(_ path: String, _ options: TrueTypeFontLoaderSettings = TrueTypeFontLoaderSettings()) async throws -> AssetResult {
        let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
        let report = try await coordinator.preload([AssetRequest(path: path, options: AssetOptions().with(TrueTypeFontLoaderSettings.self, options))])
        return try #require(report.results.first)
    }

    /// The failure of `result`, in words ("loaded" if it loaded).
    static func failure(_ result: AssetResult) -> String {
        result.outcome.error.map { "\($0)" } ?? "loaded"
    }
}
