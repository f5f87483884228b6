import Foundation
import Preload

/// What a pack records beside its entries, as JSON in the index's strings (where the header's
/// ``BakedFormat/Header/metadata`` says): the table of kinds its records number, and the warnings
/// loading each entry's source gave.
///
/// Version 2: `{"kinds":["texture","atlas","data"],"warnings":{"3":[{"code":"...","message":"..."}]}}`,
/// record kind *k* naming `kinds[k - 1]`. Version 1: the warnings object alone, its kinds the
/// fixed ``BakedFormat/versionOneKinds``.
public struct BakedMetadata: Sendable {
    /// The kind names the pack's records number, from 1.
    public var kinds: [String]
    /// The warnings loading each entry's source gave, by entry position (most have none).
    public var warnings: [Int: [AssetWarning]]

    /// Metadata naming `kinds`, with `warnings`.
    public init(kinds: [String], warnings: [Int: [AssetWarning]] = [:]) {
        self.kinds = kinds
        self.warnings = warnings
    }

    /// The version 2 JSON, keys sorted (the same pack bakes to the same bytes).
    public func encoded() throws -> [UInt8] {
        var object: [String: Any] = ["kinds": kinds]
        if !warnings.isEmpty {
            object["warnings"] = Dictionary(
                uniqueKeysWithValues: warnings.map { position, list in
                    ("\(position)", list.map { ["code": $0.code.rawValue, "message": $0.message] })
                })
        }
        return [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// The metadata of a pack of `version` with `entries` entries, from its `text` (`nil`: the
    /// header's range is empty).
    public init(text: String?, version: UInt32, entries: Int) throws(BakedPackError) {
        guard version >= 2 else {
            var table: Any?
            if let text { table = try Self.json(text, "the warnings table") }
            self.init(kinds: BakedFormat.versionOneKinds, warnings: try Self.warnings(table, entries))
            return
        }
        guard let text else {
            guard entries == 0 else { throw .malformed("the index has no metadata (its table of kinds)") }
            self.init(kinds: [])
            return
        }
        guard let object = try Self.json(text, "the metadata") as? [String: Any], let kinds = object["kinds"] as? [String] else {
            throw .malformed("the metadata is not a JSON object with a list of kinds")
        }
        guard kinds.count <= Int(UInt8.max), !kinds.contains(""), Set(kinds).count == kinds.count else {
            throw .malformed("the table of kinds (\(kinds.count) names) has an empty, repeated or 256th name")
        }
        self.init(kinds: kinds, warnings: try Self.warnings(object["warnings"], entries))
    }

    private static func json(_ text: String, _ what: String) throws(BakedPackError) -> Any {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { throw .malformed("\(what) is not JSON") }
        return object
    }

    /// The warnings table: `{"3": [{"code": ..., "message": ...}]}`.
    private static func warnings(_ object: Any?, _ entries: Int) throws(BakedPackError) -> [Int: [AssetWarning]] {
        guard let object else { return [:] }
        guard let table = object as? [String: [[String: String]]] else {
            throw .malformed("the warnings table is not a JSON object of warning lists")
        }
        var warnings: [Int: [AssetWarning]] = [:]
        for (key, list) in table {
            guard let position = Int(key), (0..<entries).contains(position) else {
                throw .malformed("the warnings table names entry '\(key)', which does not exist")
            }
            warnings[position] = list.map { AssetWarning(AssetWarning.Code(rawValue: $0["code"] ?? ""), $0["message"] ?? "") }
        }
        return warnings
    }
}
