import Preload

/// What a baked index keeps once for all its entries (``BakedIndex/Entry`` reads its record,
/// name, kind, dependencies and source path here): the index's bytes, the pack's table of kinds,
/// its dependency table, and its entries' source paths as the folders they are in.
final class EntryTables: Sendable {
    /// The index's records and names.
    let bytes: BakedIndexBytes
    /// The pack's kind names, numbered from 1 by the records.
    let kinds: [String]
    /// The index's dependency table: entry positions.
    let dependencies: [UInt32]
    /// The folders entries' sources are in: a source path is one of these followed by its
    /// entry's name (a bake of a folder names its entries by their paths inside it).
    let sourceFolders: [String]
    /// Each entry's folder in ``sourceFolders`` (`UInt32.max`: its source is in ``otherSources``).
    let entryFolders: [UInt32]
    /// The source paths that are not a folder and the entry's name (an atlas's packed pages),
    /// by entry position.
    let otherSources: [Int: String]

    init(
        bytes: BakedIndexBytes, kinds: [String], dependencies: [UInt32], sourceFolders: [String], entryFolders: [UInt32],
        otherSources: [Int: String]
    ) {
        self.bytes = bytes
        self.entryFolders = entryFolders
        self.kinds = kinds
        self.dependencies = dependencies
        self.sourceFolders = sourceFolders
        self.otherSources = otherSources
    }
}

/// Reads every entry's source path into its folder's number (``EntryTables/sourceFolders``),
/// checking each is inside the index and UTF-8, without making a string per entry.
struct EntrySources {
    private(set) var folders: [String] = []
    private(set) var others: [Int: String] = [:]
    private var folderNumbers: [String: UInt32] = [:]
    private var last: (bytes: UnsafeRawBufferPointer, number: UInt32)?

    /// Each entry's folder number (`UInt32.max`: in ``others``), and the tables.
    static func read(count: Int, index: UnsafeRawBufferPointer, strings: UnsafeRawBufferPointer) throws(BakedPackError) -> ([UInt32], Self) {
        var sources = Self()
        var numbers: [UInt32] = []
        numbers.reserveCapacity(count)
        for position in 0..<count {
            let record = try BakedIndex.record(in: index, at: position * BakedFormat.recordSize, position: position)
            numbers.append(try sources.folder(of: record, position: position, in: strings))
        }
        return (numbers, sources)
    }

    private mutating func folder(of record: BakedFormat.Record, position: Int, in strings: UnsafeRawBufferPointer) throws(BakedPackError) -> UInt32 {
        let what = { "entry \(position + 1)'s source path" }
        guard Int(record.sourcePath.upperBound) <= strings.count else { throw .malformed("\(what()) lies outside the index") }
        guard Int(record.name.upperBound) <= strings.count, record.sourcePath.count >= record.name.count else {
            return try other(record, position: position, in: strings)
        }
        let source = UnsafeRawBufferPointer(rebasing: strings[Int(record.sourcePath.lowerBound)..<Int(record.sourcePath.upperBound)])
        let name = UnsafeRawBufferPointer(rebasing: strings[Int(record.name.lowerBound)..<Int(record.name.upperBound)])
        let folder = UnsafeRawBufferPointer(rebasing: source[0..<(source.count - name.count)])
        // A valid name starts on a character, so the folder ends on one: the folder checked as
        // UTF-8 and the name (checked as the entry's) make the whole path UTF-8.
        guard !name.isEmpty, source[folder.count...].elementsEqual(name) else { return try other(record, position: position, in: strings) }
        if let last, last.bytes.elementsEqual(folder) { return last.number }
        guard let text = String(validating: folder, as: UTF8.self) else { throw .malformed("\(what()) is not UTF-8") }
        let number = folderNumbers[text] ?? UInt32(folders.count)
        if number == UInt32(folders.count) {
            folders.append(text)
            folderNumbers[text] = number
        }
        last = (folder, number)
        return number
    }

    private mutating func other(_ record: BakedFormat.Record, position: Int, in strings: UnsafeRawBufferPointer) throws(BakedPackError) -> UInt32 {
        let source = try BakedIndex.string(record.sourcePath, in: strings, what: { "entry \(position + 1)'s source path" })
        others[position] = source
        return UInt32.max
    }
}
