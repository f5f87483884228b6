import Foundation
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadPNG
import PreloadTileMap

/// Reads one plugin's options from a manifest entry: the object under the reader's ``key`` in
/// the entry's `"options"` (`"options": {"png": {"alpha": "premultiplied"}}`).
///
/// A third-party plugin with options gives the manifest a reader of its own, next to the
/// bundled ones: `AssetManifest(contentsOf:optionReaders: ManifestOptionReaders.bundled + [MyReader()])`.
public protocol ManifestOptionReader: Sendable {
    /// The key under an entry's `"options"`: the plugin's identifier, by convention.
    var key: String { get }
    /// Sets `options` from `values`. Every key of the object must be read, or the entry fails
    /// with "unknown option".
    func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws
}

/// The members of one plugin's options object, read by type; reading a member of the wrong type
/// throws an error naming it, and members nobody read are reported as unknown.
public final class ManifestOptionValues {
    private let values: [String: Any]
    private(set) var read = Set<String>()

    init(_ values: [String: Any]) {
        self.values = values
    }

    /// The keys given.
    var keys: [String] { values.keys.sorted() }

    /// The member `key` as a Boolean; `nil` when absent.
    public func bool(_ key: String) throws -> Bool? {
        try member(key, "true or false") { value in
            guard let number = value as? NSNumber, Self.isBoolean(number) else { return nil }
            return number.boolValue
        }
    }

    /// The member `key` as a whole number in `range`; `nil` when absent.
    public func int(_ key: String, in range: ClosedRange<Int> = 0...Int(Int32.max)) throws -> Int? {
        try member(key, "a whole number from \(range.lowerBound) to \(range.upperBound)") { value in
            guard let number = value as? NSNumber, !Self.isBoolean(number), let int = Int(exactly: number.doubleValue), range.contains(int)
            else { return nil }
            return int
        }
    }

    /// The member `key` as one of `choices`; `nil` when absent.
    public func string(_ key: String, oneOf choices: [String]) throws -> String? {
        try member(key, "one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))") { value in
            guard let string = value as? String, choices.contains(string) else { return nil }
            return string
        }
    }

    /// The member `key` as any string; `nil` when absent.
    public func string(_ key: String) throws -> String? {
        try member(key, "a string") { $0 as? String }
    }

    /// `JSONSerialization` gives booleans as numbers of type `c`.
    private static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    private func member<T>(_ key: String, _ expected: String, _ convert: (Any) -> T?) throws -> T? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard let converted = convert(value) else { throw ManifestOptionProblem("'\(key)' must be \(expected)") }
        return converted
    }
}

/// Why an option could not be read (the manifest adds where).
struct ManifestOptionProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The option readers of the bundled plugins.
public enum ManifestOptionReaders {
    /// `png` (`PNGDecodeOptions`), `atlas` (`AtlasPackingOptions`), `audio` (`AudioSettings`) and
    /// `tilemap` (`TileMapCSVOptions`, for a CSV grid loaded as a map).
    public static var bundled: [any ManifestOptionReader] {
        [PNGOptionReader(), AtlasOptionReader(), AudioOptionReader(), TileMapOptionReader()]
    }
}

/// `"png": {"alpha": "premultiplied", "keep16Bit": true, "maxWidth": 8192, "maxHeight": 8192, "maxDecodedMiB": 256}`
struct PNGOptionReader: ManifestOptionReader {
    var key: String { "png" }

    func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws {
        var png = options[PNGDecodeOptions.self]
        if let alpha = try values.string("alpha", oneOf: ["straight", "premultiplied"]) { png.alphaMode = AlphaMode(rawValue: alpha)! }
        if let keep = try values.bool("keep16Bit") { png.keepsSixteenBitSamples = keep }
        let width = try values.int("maxWidth", in: 1...Int(Int32.max)) ?? png.limits.maxWidth
        let height = try values.int("maxHeight", in: 1...Int(Int32.max)) ?? png.limits.maxHeight
        let bytes = try values.int("maxDecodedMiB", in: 1...(1 << 20)).map { $0 << 20 } ?? png.limits.maxDecodedBytes
        png.limits = ImageLimits(maxWidth: width, maxHeight: height, maxDecodedBytes: bytes)
        options[PNGDecodeOptions.self] = png
    }
}

/// `"atlas": {"maxPageSize": 1024, "padding": 2, "trim": true, "extrude": 1, "powerOfTwo": false, "rotation": true, "scale": 1}`
struct AtlasOptionReader: ManifestOptionReader {
    var key: String { "atlas" }

    func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws {
        var atlas = options[AtlasPackingOptions.self]
        let largest = AtlasPackingOptions.largestPageSize
        if let size = try values.int("maxPageSize", in: 1...largest) { atlas.maxPageSize = size }
        if let padding = try values.int("padding", in: 0...largest) { atlas.padding = padding }
        if let trim = try values.bool("trim") { atlas.trimsTransparentBorders = trim }
        if let extrusion = try values.int("extrude", in: 0...largest) { atlas.extrusion = extrusion }
        if let powerOfTwo = try values.bool("powerOfTwo") { atlas.powerOfTwoPages = powerOfTwo }
        if let rotation = try values.bool("rotation") { atlas.allowsRotation = rotation }
        if let scale = try values.int("scale", in: 1...16) { atlas.scale = scale }
        options[AtlasPackingOptions.self] = atlas
    }
}

/// `"audio": {"kind": "music", "samples": "float32", "longestSoundSeconds": 10, "longestSeconds": 3600}`
struct AudioOptionReader: ManifestOptionReader {
    var key: String { "audio" }

    func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws {
        var audio = options[AudioSettings.self]
        if let kind = try values.string("kind", oneOf: AudioSettings.Kind.allCases.map(\.rawValue)) {
            audio.kind = AudioSettings.Kind(rawValue: kind)!
        }
        if let samples = try values.string("samples", oneOf: AudioSampleFormat.allCases.map(\.rawValue)) {
            audio.sampleFormat = AudioSampleFormat(rawValue: samples)!
        }
        if let seconds = try values.int("longestSoundSeconds", in: 0...86400) { audio.longestSound = .seconds(seconds) }
        if let seconds = try values.int("longestSeconds", in: 1...86400) { audio.longestDuration = .seconds(seconds) }
        options[AudioSettings.self] = audio
    }
}

/// `"tilemap": {"tileWidth": 16, "tileHeight": 16, "numbering": "tileIndexes"}`: a CSV grid's tile size
/// and what its numbers are (the entry names the plugin, `"plugin": "tilemap"`, as Phaser's
/// `tilemapCSV` does); a Tiled map needs none.
struct TileMapOptionReader: ManifestOptionReader {
    var key: String { "tilemap" }

    func read(_ values: ManifestOptionValues, into options: inout AssetOptions) throws {
        var csv = options[TileMapCSVOptions.self]
        if let width = try values.int("tileWidth", in: 1...65536) { csv.tileWidth = width }
        if let height = try values.int("tileHeight", in: 1...65536) { csv.tileHeight = height }
        if let numbering = try values.string("numbering", oneOf: ["tileIndexes", "globalIDs"]) {
            csv.numbering = TileMapCSVOptions.Numbering(rawValue: numbering)!
        }
        options[TileMapCSVOptions.self] = csv
    }
}
