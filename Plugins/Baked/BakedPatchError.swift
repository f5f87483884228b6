import Preload

/// Why a baked pack could not be patched (``BakedPackPatch``). Nothing is written: the
/// destination keeps the pack it had.
public enum BakedPatchError: AssetFailure, Equatable {
    /// A fetched entry's bytes do not have the CRC-32 its record in the new index gives.
    case entryDamaged(entry: String, expected: UInt32, found: UInt32)
    /// An entry taken from the old pack no longer has the bytes the diff took it for (the old
    /// file changed or was damaged since its index was read).
    case oldEntryChanged(entry: String)
    /// No fetched range holds this entry to fetch (or the range given has another length).
    case missingBytes(entry: String)
    /// The new pack's header or index, or the pack as written, fails its checks.
    case newPack(BakedPackError)
    /// The header and index given are not those the diff was made from.
    case notTheDiffsPack(String)
    /// The old pack cannot be read.
    case oldPack(String)
    /// The new pack cannot be written.
    case cannotWrite(String)

    public var category: AssetError.Category {
        switch self {
        case .entryDamaged, .oldEntryChanged: .corrupt
        case .missingBytes: .truncated
        case .newPack(let error): error.category
        case .notTheDiffsPack: .other
        case .oldPack: .unreadable
        case .cannotWrite: .other
        }
    }

    public var description: String {
        switch self {
        case .entryDamaged(let entry, let expected, let found):
            "entry '\(entry)': the fetched bytes' CRC-32 is \(hex(found)), the new index says \(hex(expected)): not written"
        case .oldEntryChanged(let entry): "entry '\(entry)': the old pack's bytes no longer match its index (the old pack changed)"
        case .missingBytes(let entry): "entry '\(entry)': no fetched range holds its bytes"
        case .newPack(let error): "the new pack: \(error)"
        case .notTheDiffsPack(let detail): "the header and index given are not the diff's new pack: \(detail)"
        case .oldPack(let detail): "the old pack cannot be read: \(detail)"
        case .cannotWrite(let detail): detail
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
