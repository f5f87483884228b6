#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that appears whole or not at all: bytes go to a hidden temporary file beside the
/// destination (folders are made as needed), which replaces the destination only on
/// ``commit()``. Dropped without committing, the temporary file is removed.
public final class AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The destination that could not be written.
        public let path: String
        /// The system's reason.
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// The destination, written on ``commit()``.
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    private var committed = false
    /// The first byte not yet handed to the disk's writeback.
    private var flushed: UInt64 = 0

    /// Opens a temporary file beside `path`, making folders as needed.
    public init(path: String) throws {
        self.path = path
        let folder = AssetPath.directory(of: path)
        if let folder { try Self.makeFolders(folder, for: path) }
        temporary = (folder.map { $0 + "/" } ?? "") + ".\(AssetPath.fileName(of: path)).\(getpid()).tmp"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { if !committed { discard() } }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        if bytes.count >= 64 << 10 { startWriteback() }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Overwrites bytes at `offset` (a header filled in at the end), without moving the append point.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Appends `count` bytes of the file open as `source`, from `offset`, copied by the kernel
    /// where it can (``FileRangeCopy``): the bytes do not pass through this process.
    public func append(from source: Int32, at offset: UInt64, count: Int) throws {
        do { try FileRangeCopy.copy(from: source, at: offset, count: count, to: descriptor) } catch {
            throw WriteError(path: path, reason: error.reason)
        }
        startWriteback()
    }

    /// Every 8 MiB appended, the disk starts on what came before (``FileRangeCopy/startWriteback(_:from:count:)``):
    /// ``commit()``'s fsync then waits for less.
    private func startWriteback() {
        let position = UInt64(max(0, lseek(descriptor, 0, SEEK_CUR)))
        if position >= flushed + 8 << 20 {
            FileRangeCopy.startWriteback(descriptor, from: flushed, count: position - flushed)
            flushed = position
        }
    }

    /// Flushes the data to disk and puts the file in place (the folder flushed too).
    public func commit() throws { try commit(flushing: true) }

    /// Puts the file in place; with `flushing`, the data and then the folder are flushed to
    /// disk first (``commit()``), so that the file survives a power cut whole. Without, a cut
    /// may leave it short or empty: for a cache that checks what it reads (the bake cache's
    /// entries are checked against their SHA-256), where the two flushes would cost more than
    /// the file.
    public func commit(flushing: Bool) throws {
        guard !flushing || fsync(descriptor) == 0, close(descriptor) == 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        descriptor = -1
        guard rename(temporary, path) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        committed = true
        guard flushing else { return }
        // The rename itself lasts only once the folder is on disk too.
        let folder = open(AssetPath.directory(of: path) ?? ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Drops the temporary file; the destination is untouched.
    public func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporary)
    }

    /// Writes several files so that a failure leaves none of them half-written: all are written
    /// to temporary files first, and only then put in place one by one.
    public static func write(_ files: [(path: String, bytes: [UInt8])]) throws {
        var pending: [AtomicFile] = []
        for (path, bytes) in files {
            let file = try AtomicFile(path: path)
            pending.append(file)
            try file.write(bytes)
        }
        for file in pending { try file.commit() }
    }

    private static func makeFolders(_ folder: String, for path: String) throws {
        var built = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw WriteError(path: path, reason: "its folder cannot be made: \(String(cString: strerror(errno)))")
            }
        }
    }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
