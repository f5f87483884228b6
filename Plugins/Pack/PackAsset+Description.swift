import Preload

extension PackAsset: DescribedAsset {
    /// The raw bytes of each entry that loaded, by its name: a raw entry's as loaded, the
    /// others read from the pack again (inflated).
    public var checksummedParts: [ChecksummedPart] {
        let reader = reader ?? PackLoader()
        let path = path
        return entries.filter { $0.asset != nil }.map { entry in
            let name = entry.name
            let raw = (entry.asset as? DataAsset)?.bytes
            return ChecksummedPart(Self.entryPart(name)) {
                try raw ?? reader.readEntry(name, in: path, limit: .max, memory: .shared, isCancelled: { false }, progress: { _ in })
            }
        }
    }

    /// `format`, and `entries`: each one's `name`, raw `bytes` (when known), `compressedBytes`
    /// as stored, `status`, `sha256` over its raw bytes and `error`; `pak, 3 entries`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let entryFields = entries.map { entry in
            var fields: DescriptionFields = ["name": .string(entry.name)]
            fields["bytes"] = entry.rawSize.map { .int(Int(clamping: $0)) }
            fields["compressedBytes"] = .int(Int(clamping: entry.storedSize))
            fields["status"] = .string(entry.outcome.status)
            fields["sha256"] = checksums?[Self.entryPart(entry.name)].map(DescriptionValue.string)
            fields["error"] = entry.outcome.error.map { .string($0.description) }
            return DescriptionValue.object(fields)
        }
        return AssetDescription(
            fields: ["format": .string(format.rawValue), "entries": .array(entryFields)],
            summary: "\(format.rawValue), \(AssetDescription.counted(entries.count, "entry", plural: "entries"))")
    }

    /// The name of the part holding entry `name`'s raw bytes: `entry NAME`.
    private static func entryPart(_ name: String) -> String { "entry \(name)" }
}
