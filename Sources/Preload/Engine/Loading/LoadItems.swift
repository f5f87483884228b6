/// The items of one ``LoadOperation``, kept until it starts. A load of consecutive assets that
/// need nothing besides their numbers (no bytes read ahead, no budget estimate, no declared
/// dependency: a listed run of a baked pack's entries) keeps only their range, 16 bytes for the
/// whole load, not a 32-byte ``LoadItem`` per asset: a batch holds its loads' items until each
/// load starts, and a pack of a million entries planned ahead of its loads held 32 MB of them.
struct LoadItems: RandomAccessCollection, Sendable {
    /// The items, when they are not a plain run (empty for one).
    private var list: [LoadItem]
    /// The assets of a plain run (empty when ``list`` holds the items).
    let run: Range<Int>

    /// `items`, kept as their range when they are consecutive and plain.
    init(_ items: [LoadItem]) {
        guard let first = items.first?.asset, items.indices.allSatisfy({ items[$0].isPlain && items[$0].asset == first &+ $0 }) else {
            (list, run) = (items, 0..<0)
            return
        }
        (list, run) = ([], first..<first + items.count)
    }

    /// No items (what a started load keeps).
    static let none = LoadItems([])

    /// The first item's position: 0.
    var startIndex: Int { 0 }
    /// How many items.
    var endIndex: Int { list.isEmpty ? run.count : list.count }

    /// The item at `position` (one of a plain run made as it is read: a few instructions).
    subscript(position: Int) -> LoadItem {
        list.isEmpty ? LoadItem(asset: run.lowerBound + position, contents: nil) : list[position]
    }

    /// The asset of the item at `position`, read where the list keeps it (reading it through
    /// ``subscript(_:)`` copied the item, retaining and releasing its read-ahead bytes).
    func asset(at position: Int) -> Int {
        list.isEmpty ? run.lowerBound + position : list[position].asset
    }

    /// Whether the item at `position` declared dependencies, read where the list keeps it.
    func hasDependencies(at position: Int) -> Bool {
        !list.isEmpty && list[position].hasDependencies
    }

    /// The bytes planning read ahead for the item at `position`, moved out of it: its load's
    /// context then holds the only reference, and they go when the context moves on to the
    /// next file. (Copied out, each item's bytes were retained and released three times and
    /// freed with the list: ~190 instructions an item; callgrind, docs/benchmarks.md, "Issue 50:
    /// engine instructions, round 5".) The item keeps no bytes after: read them once.
    mutating func takeContents(at position: Int) -> AssetBytes? {
        list.isEmpty ? nil : list[position].contents.take()
    }

    /// Whether the items are kept as their range, no item stored (for the tests).
    var isRun: Bool { list.isEmpty && !run.isEmpty }
}

extension LoadItem {
    /// Whether the item needs nothing besides its asset's number: no bytes read ahead, no
    /// estimate for the memory budget, no declared dependency.
    var isPlain: Bool { contents == nil && decodedBytes == 0 && !hasDependencies }
}
