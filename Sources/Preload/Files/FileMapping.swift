#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory, unmapped when the last reference goes: assets
/// made from it (``AssetBytes/init(viewing:offset:count:)``) are views into the mapping, not
/// copies, and keep it alive.
///
/// The file's size is read with `fstat` on the descriptor that maps it, and every view is checked
/// against it, so no view reaches past the end of the file as it was mapped. A file that someone
/// else *truncates* while it is mapped still raises `SIGBUS` when a page past its new end is
/// touched: that is the kernel's rule for shared file pages, and no check at mapping time can
/// prevent it. Replace mapped files by writing a new file and renaming it over the old one (as
/// `preload bake` does): the old mapping keeps the old file's pages until it is unmapped.
///
/// ```swift
/// import Preload
///
/// let mapping = try FileMapping(path: "level.bake")
/// let header = AssetBytes(viewing: mapping, offset: 0, count: min(64, mapping.count))
/// ```
public final class FileMapping: Sendable {
    /// The file, as it was named.
    public let path: String
    /// What `fstat` said of the file that was mapped: its identity, size and modification time.
    public let facts: FileFacts
    /// The file's size in bytes when it was mapped.
    public var count: Int { Int(facts.size) }
    /// The mapping's first byte (`nil` for an empty file, which maps nothing).
    private var base: UnsafeRawPointer? { address.pointer }
    private let address: Address

    // The address is only read, never written through: sharing it between threads is safe.
    private struct Address: @unchecked Sendable { let pointer: UnsafeRawPointer? }

    /// Maps the file at `path`. Throws an ``AssetError`` naming it when it cannot be opened, is
    /// not a regular file, or cannot be mapped.
    public init(path: String) throws(AssetError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AssetError.fromErrno(errno, path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AssetError.fromErrno(errno, path: path) }
        let facts = try FileFacts(info, path: path)
        guard !facts.isDirectory else { throw AssetError(path: path, category: .unreadable, reason: "is a folder, not a file") }
        self.facts = facts
        guard facts.size > 0 else {
            address = Address(pointer: nil)
            return
        }
        guard let mapped = mmap(nil, Int(facts.size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw AssetError.fromErrno(errno, path: path)
        }
        address = Address(pointer: UnsafeRawPointer(mapped))
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// Calls `body` with the bytes `offset..<offset + count` in place, valid only during the call.
    /// The range must lie inside the file.
    public func withUnsafeBytes<Result>(
        offset: Int = 0, count: Int? = nil, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let count = count ?? (self.count - offset)
        precondition(offset >= 0 && count >= 0 && offset <= self.count - count, "range outside the mapped file")
        return try withExtendedLifetime(self) { try body(UnsafeRawBufferPointer(start: base.map { $0 + offset }, count: count)) }
    }

    /// Advises the kernel that `offset..<offset + count` will be read soon (read-ahead from a
    /// cold cache).
    public func willNeed(offset: Int = 0, count: Int? = nil) {
        guard let base else { return }
        let count = count ?? (self.count - offset)
        guard offset >= 0, count > 0, offset <= self.count - count else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = offset / page * page
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), offset + count - start, MADV_WILLNEED)
    }
}

/// A range of a ``FileMapping``: what ``AssetBytes`` holds for mapped bytes.
struct MappedView: Sendable {
    let mapping: FileMapping
    let offset: Int
    let count: Int

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try mapping.withUnsafeBytes(offset: offset, count: count, body)
    }
}
