#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// What planning learns from one open of a file on disk: its facts from `fstat` and, when it is
/// small and the batch's read-ahead allows, its whole contents, else its first bytes. A small
/// file then costs four system calls (`open`, `fstat`, `read`, `close`), once, where a bare
/// decode loop's `fopen`, `fseek`, `ftell`, `fread` cost seven; a file not read ahead costs the
/// same four to plan (its first bytes for the claim rule read from the same descriptor, not by
/// opening it again) and `open`, `read`, `close` to load.
enum FileProbe {
    /// Files up to this size are read while planning, if the budget allows.
    static let largestReadAhead = 64 << 10

    /// The facts of the file at `path`: opens it without blocking (a FIFO cannot hang it) and
    /// without taking a controlling terminal and `fstat`s it. When `readingAhead`, a regular
    /// file of at most ``largestReadAhead`` bytes that `budget` has room for is read whole into
    /// `contents` (into `memory`, when pooled sizes); one not read whole has its first
    /// `headerLength` bytes (fewer if it is shorter) read into `header`, what the claim rule and
    /// a size estimate look at. Each is left alone when not read: a folder, a large file, no
    /// header asked for, or reading it failed (the claim's own read then says why). A file that
    /// cannot be opened (no read permission) still gets its facts from `stat`; reading it will
    /// report the error.
    ///
    /// The bytes are arguments, not fields of a returned value: a probe value holding the facts
    /// and the bytes was copied and destroyed through value witnesses for every file (about 110
    /// instructions of a 16x16 PNG's planning; a header field made that 300).
    static func probe(
        _ path: String, readingAhead: Bool, contents: inout AssetBytes?, header: inout [UInt8]?, headerLength: Int = 0,
        budget: inout ReadAheadAllowance, memory: AssetMemory
    ) throws(AssetError) -> FileFacts {
        let descriptor = openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw AssetError.fromErrno(code, path: path) }
            return try FileFacts.of(path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AssetError.fromErrno(errno, path: path) }
        let facts = try FileFacts(info, path: path)
        let size = Int(facts.size)
        guard readingAhead, !facts.isDirectory, size <= largestReadAhead, budget.take(size) else {
            if !facts.isDirectory, headerLength > 0 { header = firstBytes(of: descriptor, count: min(headerLength, size)) }
            return facts
        }
        var failure: Int32 = 0
        contents = AssetBytes(unsafeUninitializedCapacity: size, memory: memory) { buffer, count in
            failure = FileContents.readAll(descriptor, into: buffer, count: &count)
        }
        if failure != 0 {
            contents = nil
            throw AssetError.fromErrno(failure, path: path)
        }
        return facts
    }

    /// The first `count` bytes of the file open at `descriptor` (one `read` when it is at least
    /// that long), or `nil` when reading fails.
    private static func firstBytes(of descriptor: Int32, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            failure = FileContents.readAll(descriptor, into: UnsafeMutableRawBufferPointer(buffer), count: &filled)
        }
        return failure == 0 ? bytes : nil
    }
}

/// How many bytes a batch may read ahead while planning, shared by its planning threads: read
/// ahead, small files wait in memory for their loads, so the total is bounded.
final class ReadAheadBudget: Sendable {
    private let remaining: Atomic<Int>

    init(bytes: Int = 32 << 20) {
        remaining = Atomic(bytes)
    }

    /// Gives back `bytes` taken and not used.
    func giveBack(_ bytes: Int) {
        if bytes > 0 { remaining.add(bytes, ordering: .relaxed) }
    }

    /// Takes `bytes` from the budget if it has them.
    func take(_ bytes: Int) -> Bool {
        var current = remaining.load(ordering: .relaxed)
        while current >= bytes {
            let (exchanged, original) = remaining.compareExchange(
                expected: current, desired: current - bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}

/// One planning thread's share of a batch's ``ReadAheadBudget``, drawn from it a slice at a
/// time so that threads reading ahead do not contend for the shared count on every file; what
/// is left of the slice goes back when the allowance ends.
struct ReadAheadAllowance: ~Copyable {
    private let budget: ReadAheadBudget
    private var left = 0

    /// Bytes drawn from the shared budget at once.
    static let slice = 256 << 10

    init(_ budget: ReadAheadBudget) {
        self.budget = budget
    }

    /// Takes `bytes`, drawing another slice (or, near the budget's end, just `bytes`) when
    /// the one drawn is spent.
    mutating func take(_ bytes: Int) -> Bool {
        if left < bytes {
            let slice = max(Self.slice, bytes)
            guard budget.take(slice) else { return budget.take(bytes) }
            left += slice
        }
        left -= bytes
        return true
    }

    deinit { budget.giveBack(left) }
}

extension FileContents {
    /// Reads the file at `path`, which `stat` found `size` bytes long, into an asset's bytes,
    /// without asking its size again: one `read` when it still has that size. A file that grew
    /// since is read whole as it is now; one that shrank, up to its end.
    static func assetBytes(path: String, knownSize size: Int64, limit: Int, memory: AssetMemory) throws(AssetError) -> AssetBytes {
        guard size <= limit else { throw AssetError.fileTooLarge(path: path, size: Int(size), limit: limit) }
        let descriptor = openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AssetError.fromErrno(errno, path: path) }
        defer { close(descriptor) }
        var failure: Int32 = 0
        var grew = false
        // One byte of spare room tells a file that grew from one that kept its size.
        let bytes = AssetBytes(unsafeUninitializedCapacity: Int(size) + 1, memory: memory) { buffer, count in
            while count < buffer.count {
                let wanted = buffer.count - count
                let got = systemRead(descriptor, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + count, wanted)
                if got > 0 {
                    count += got
                    if got < wanted && count == Int(size) { return }  // a short read that ends at the known size: the end
                } else if got == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
            grew = true
        }
        if failure != 0 { throw AssetError.fromErrno(failure, path: path) }
        return grew ? try assetBytes(path: path, limit: limit, memory: memory) : bytes
    }
}
