import PreloadConcurrency

/// A baked index's entry positions by name, without a second copy of any name: an open-addressing
/// table of positions (4 bytes a slot, at most half full) whose keys are the entries' own names.
/// A `[String: Int]` held every name again with its position, about 60 bytes an entry.
struct BakedNameTable: Sendable {
    /// Each slot an entry's position plus one; 0 is empty.
    private var slots: [UInt32]
    private let mask: Int

    /// A table with room for `count` entries.
    init(count: Int) {
        var size = 16
        while size < count * 2 { size <<= 1 }
        slots = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    /// Adds entry `position`, named `name`; `false` (adding nothing) when an entry of that name is
    /// there already. `names` gives an added position's name.
    mutating func insert(_ name: String, at position: Int, names: (Int) -> String) -> Bool {
        var slot = name.hashValue & mask
        while slots[slot] != 0 {
            if names(Int(slots[slot]) - 1) == name { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = UInt32(position + 1)
        return true
    }

    /// The position of the entry named `name`.
    func position(of name: String, names: (Int) -> String) -> Int? {
        var slot = name.hashValue & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if names(position) == name { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }
}

/// An index's ``BakedNameTable``, made the first time an entry is looked up by name. Reading an
/// index checks that its names are unique with a table of its own, let go once the index is
/// read: a pack whose entries are only read by position (a batch's bulk path reads a whole pack
/// so) then holds no table (about 10 bytes an entry while it is open), and one whose entries are
/// asked for by name (`level.bake#hero.png`) makes it once.
final class BakedNameLookup: Sendable {
    private let table = PreloadMutex<BakedNameTable?>(nil)

    /// Whether the table was made (for the tests).
    var isMade: Bool { table.withLock { $0 != nil } }

    /// The position of the entry named `name` among `count` entries whose names `names` gives.
    func position(of name: String, count: Int, names: (Int) -> String) -> Int? {
        let made = table.withLock { table in
            if let table { return table }
            var made = BakedNameTable(count: count)
            for position in 0..<count { _ = made.insert(names(position), at: position, names: names) }
            table = made
            return made
        }
        return made.position(of: name, names: names)
    }
}
