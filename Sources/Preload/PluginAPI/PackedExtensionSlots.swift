/// The registry's short ASCII extensions (one to eight bytes, lowercased, packed into a word:
/// ``PluginRegistry/packedLowercase(_:)``), each with its plugin's index, in a table of slots at
/// most half full, found from the packed value by one multiplication and shift: claiming a
/// file by its extension is about one comparison, whatever the number of extensions claimed
/// (the command's plugins claim ~40).
struct PackedExtensionSlots: Sendable {
    /// What the end of a path holds, as ``packedExtension(_:)`` finds it.
    enum Found: Equatable {
        /// No extension: none after the last `/`, a leading dot (a hidden file) or a trailing one.
        case absent
        /// A short ASCII extension, packed.
        case packed(UInt64)
        /// Something else to look at byte by byte: an extension longer than eight bytes, or not
        /// ASCII, or a long last component whose end is not one.
        case other
    }

    /// The slots; a packed value of 0 (no extension packs to it) is an empty one.
    private var slots: [(packed: UInt64, index: Int)] = []
    /// How far a product is shifted down to a slot's number (64 minus the table's bits).
    private var shift: UInt64 = 63

    /// Fibonacci hashing's multiplier (2⁶⁴ divided by the golden ratio): packed extensions
    /// that differ in any byte land apart.
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// An empty table: no extension is claimed.
    init() {}

    /// A table of `entries`, each packed value once.
    init(_ entries: [(packed: UInt64, index: Int)]) {
        guard !entries.isEmpty else { return }
        var bits = 3
        while 1 << bits < 2 * entries.count { bits += 1 }
        slots = Array(repeating: (0, 0), count: 1 << bits)
        shift = UInt64(64 - bits)
        for entry in entries {
            var slot = self.slot(of: entry.packed)
            while slots[slot].packed != 0 { slot = (slot + 1) & (slots.count - 1) }  // the next free one
            slots[slot] = entry
        }
    }

    private func slot(of packed: UInt64) -> Int {
        Int(truncatingIfNeeded: (packed &* Self.multiplier) >> shift)
    }

    /// The plugin index of the packed extension `packed`, if a plugin claims it.
    func index(of packed: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = slot(of: packed)
        while true {
            let entry = slots[slot]
            if entry.packed == packed { return entry.index }
            if entry.packed == 0 { return nil }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// The extension at the end of the path `bytes`, packed as it is read from the end, in one
    /// pass (no search for its range first, no copy of the path).
    static func packedExtension(_ bytes: UnsafeBufferPointer<UInt8>) -> Found {
        var packed: UInt64 = 0
        var index = bytes.count
        while index > 0 {
            let byte = bytes[index - 1]
            if byte == UInt8(ascii: ".") {
                guard index < bytes.count, index > 1, bytes[index - 2] != UInt8(ascii: "/") else { return .absent }
                return .packed(packed)
            }
            if byte == UInt8(ascii: "/") { return .absent }
            guard byte != 0, byte < 0x80, bytes.count - index < 8 else { return .other }
            packed = packed << 8 | UInt64(byte >= 65 && byte <= 90 ? byte | 0x20 : byte)
            index -= 1
        }
        return .absent
    }
}
