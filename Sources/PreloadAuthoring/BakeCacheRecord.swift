import Foundation
import Preload

/// What a bake cache keeps under an action key (`ac/<key>`): the `cas` digest of the entry's
/// bytes and the rest of its `BakedEntry` (size, kind, kind bits), with what the step measured
/// (its quality, the seconds it took). JSON, a few hundred bytes.
///
/// A record is checked before use: it must read, answer the key it is stored under, and name a
/// `cas` entry whose bytes hash to its digest and have its length.
struct BakeCacheRecord: Codable, Sendable, Equatable {
    /// The record layout's version.
    static let layout = 1

    var layout = Self.layout
    /// The action key the record answers (a record copied under another key is refused).
    var key: String
    /// The lowercase hex SHA-256 of the entry's bytes: their `cas` key.
    var cas: String
    /// The entry's byte count.
    var size: Int
    var width: Int, height: Int
    /// `BakedEntry.kind`: the kind recorded when not the asset type's.
    var kind: String?
    var kindBits: UInt8
    /// What the step measured of its result (a GPU texture's PSNR, dB; infinite when exact).
    var quality: Double?
    /// Seconds the step took (one core's time): what a hit saves.
    var seconds: Double
    /// The entry it was first made for (for a person reading the cache).
    var name: String

    /// The record of `entry`, made for `name` under `key` in `seconds`.
    init(key: String, entry: BakedEntry, cas: String, quality: Double?, seconds: Double, name: String) {
        self.key = key
        self.cas = cas
        size = entry.bytes.count
        (width, height) = (entry.width, entry.height)
        kind = entry.kind
        kindBits = entry.kindBits
        self.quality = quality
        self.seconds = seconds
        self.name = name
    }

    /// The entry made of `bytes` and this record's fields.
    func entry(bytes: [UInt8]) -> BakedEntry {
        BakedEntry(bytes: AssetBytes(bytes), width: width, height: height, kindBits: kindBits & 3, kind: kind)
    }

    /// The record's JSON.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// The record in `bytes`, if they read as one that answers `key`; else why not.
    static func decoded(_ bytes: [UInt8], key: String) -> Result<BakeCacheRecord, BakeCacheRecordProblem> {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let record = try? decoder.decode(BakeCacheRecord.self, from: Data(bytes)) else {
            return .failure(BakeCacheRecordProblem("its action record does not read"))
        }
        guard record.layout == layout else { return .failure(BakeCacheRecordProblem("its action record is of layout \(record.layout)")) }
        guard record.key == key else { return .failure(BakeCacheRecordProblem("its action record answers another key")) }
        guard record.cas.count == 64, record.cas.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }), record.size >= 0
        else { return .failure(BakeCacheRecordProblem("its action record names no SHA-256")) }
        return .success(record)
    }
}

/// Why an entry read from a bake cache was refused, in words.
struct BakeCacheRecordProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
