#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one `stat` says about a file: enough to weigh it for progress and to recognise the same
/// file reached through two different paths (symbolic links, `./`).
public struct FileFacts: Hashable, Sendable {
    /// Device and inode: the file's identity.
    public let device: UInt64
    /// The inode (with ``device``, the file's identity).
    public let inode: UInt64
    /// The size in bytes (for an entry in a container, what loading it costs).
    public let size: Int64
    /// Modification time in nanoseconds since 1970, so a file replaced on disk is a new file.
    public let modified: Int64
    /// Whether it is a directory (some plugins load folders, such as sprite-folder atlases).
    public let isDirectory: Bool
    /// For an entry inside a container (`game.pak#ui/hero.png`), its name there; `nil` for a
    /// file on disk. Two entries of one pack share the pack's device and inode, not this.
    public var entry: String? { isSourced ? nil : name }
    /// For a file an ``AssetSource`` serves (not on this disk, not in a container), its path,
    /// which is its identity; `nil` otherwise.
    public var sourcePath: String? { isSourced ? name : nil }
    /// What tells it from the other files of its device and inode: an entry's name, a source's
    /// path (its device and inode then no file's); `nil` for a file on disk. One stored string
    /// for both, so that the facts copied once per asset stay the size they were.
    let name: String?
    /// Whether ``name`` is a source's path rather than an entry's name.
    private let isSourced: Bool

    /// Whether it is a file or folder on this disk (neither an entry nor a source's file).
    var isOnDisk: Bool { name == nil }

    /// The facts of `entry` inside the container file `container`: its identity is the
    /// container's plus the entry's name; `size` is what loading it costs (for a compressed
    /// entry, its stored size).
    package init(entry: String, in container: FileFacts, size: Int64, isDirectory: Bool = false) {
        device = container.device
        inode = container.inode
        modified = container.modified
        self.size = size
        self.isDirectory = isDirectory
        name = entry
        isSourced = false
    }

    /// The facts of `path` as an ``AssetSource`` serves it: its identity is its path (two
    /// requests for it are one asset); `size` is what loading it costs and its share of
    /// progress; `modified` (nanoseconds since 1970, if the source knows) tells a replaced file
    /// from the one before.
    public init(sourcePath path: String, size: Int64, modified: Int64 = 0, isDirectory: Bool = false) {
        device = .max
        inode = .max
        self.size = size
        self.modified = modified
        self.isDirectory = isDirectory
        name = path
        isSourced = true
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, isDirectory: Bool) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.isDirectory = isDirectory
        name = nil
        isSourced = false
    }

    /// Stats `path` on disk, following symbolic links. Regular files and directories pass;
    /// anything else (devices, sockets, fifos) is refused. A container plugin weighs and
    /// identifies its container file with it; for a path that may be an entry inside a
    /// container, ask ``AssetFiles/facts(of:)``.
    public static func of(path: String) throws(AssetError) -> FileFacts {
        var info = stat()
        guard stat(path, &info) == 0 else { throw AssetError.fromErrno(errno, path: path) }
        return try FileFacts(info, path: path)
    }

    /// The facts `info` (from `stat` or `fstat` of `path`) gives; refuses what is neither a
    /// regular file nor a directory.
    init(_ info: stat, path: String) throws(AssetError) {
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else {
            throw AssetError(path: path, category: .unreadable, reason: "is not a regular file")
        }
        #if canImport(Darwin)
            let seconds = Int64(info.st_mtimespec.tv_sec), nanos = Int64(info.st_mtimespec.tv_nsec)
        #else
            let seconds = Int64(info.st_mtim.tv_sec), nanos = Int64(info.st_mtim.tv_nsec)
        #endif
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: seconds &* 1_000_000_000 &+ nanos, isDirectory: type == S_IFDIR)
    }
}

/// Reads whole files with plain POSIX calls: one `open`, one `fstat`, as few `read`s as the
/// kernel allows, straight into the array that is returned.
package enum FileContents {
    /// Reads the file at `path`, refusing files larger than `limit` bytes.
    package static func read(path: String, limit: Int = .max) throws(AssetError) -> [UInt8] {
        try whole(path: path, limit: limit) { size, fill in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, count in fill(UnsafeMutableRawBufferPointer(buffer), &count) }
        }
    }

    /// Reads the file at `path` like ``read(path:limit:)``, into an asset's bytes: pooled
    /// memory from `memory` when the file is large (see ``AssetMemory``).
    package static func assetBytes(path: String, limit: Int = .max, memory: AssetMemory = .shared) throws(AssetError) -> AssetBytes {
        try whole(path: path, limit: limit) { size, fill in
            AssetBytes(unsafeUninitializedCapacity: size, memory: memory, initializingWith: fill)
        }
    }

    /// Opens `path`, checks its size against `limit`, and has `make` build the result with
    /// `fill`, which reads the file into a buffer of that size and sets how much it read.
    private static func whole<Result>(
        path: String, limit: Int,
        _ make: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer, inout Int) -> Void) -> Result
    ) throws(AssetError) -> Result {
        let descriptor = openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AssetError.fromErrno(errno, path: path) }
        defer { close(descriptor) }
        let size = try size(of: descriptor, path: path, limit: limit)
        var failure: Int32 = 0
        let result = make(size) { buffer, count in failure = readAll(descriptor, into: buffer, count: &count) }
        if failure != 0 { throw AssetError.fromErrno(failure, path: path) }
        return result
    }

    private static func size(of descriptor: Int32, path: String, limit: Int) throws(AssetError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AssetError.fromErrno(errno, path: path) }
        let size = Int(info.st_size)
        guard size <= limit else { throw AssetError.fileTooLarge(path: path, size: size, limit: limit) }
        return size
    }

    /// Fills `buffer` from `descriptor` (fewer bytes if the file shrank since `fstat`); returns
    /// 0 or the `errno` of a failed read.
    static func readAll(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, count: inout Int) -> Int32 {
        while count < buffer.count {
            let got = systemRead(descriptor, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + count, buffer.count - count)
            if got > 0 {
                count += got
            } else if got == 0 {
                return 0
            } else if errno != EINTR {
                return errno
            }
        }
        return 0
    }

    /// The first `count` bytes of the file (fewer if it is shorter), for content sniffing.
    package static func prefix(path: String, count: Int) throws(AssetError) -> [UInt8] {
        try bytes(path: path, at: 0, count: count)
    }

    /// `count` bytes starting at `offset` (fewer if the file ends first): a container's
    /// directory, a header in the middle of a file. To read several places, open an ``OpenFile``.
    package static func bytes(path: String, at offset: UInt64, count: Int) throws(AssetError) -> [UInt8] {
        try OpenFile(path: path).bytes(at: offset, count: count)
    }
}

/// A file on disk kept open for reading at several offsets with `pread` (a zip archive's end
/// records, central directory and local headers), closed when released.
///
/// A container plugin reads the parts of its container it needs to index it with one; for a
/// single read from the start of a file, ``AssetFiles/prefix(_:count:)`` is enough.
public final class OpenFile {
    /// The path it was opened with, named by the errors it throws.
    public let path: String
    private let descriptor: Int32

    /// Opens the file at `path` for reading; throws ``AssetError`` when it cannot.
    public init(path: String) throws(AssetError) {
        descriptor = openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AssetError.fromErrno(errno, path: path) }
        self.path = path
    }

    deinit { close(descriptor) }

    /// `count` bytes starting at `offset`, fewer if the file ends first (none when `offset` is
    /// past its end or `count` is not positive).
    public func bytes(at offset: UInt64, count: Int) throws(AssetError) -> [UInt8] {
        // No file reaches past off_t's range: an offset read from a corrupt header may.
        guard count > 0, offset < UInt64(off_t.max) - UInt64(count) else { return [] }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                if got > 0 {
                    filled += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw AssetError.fromErrno(failure, path: path) }
        return bytes
    }
}

/// `open(2)` of `path`, passing the string's own bytes (no copy into a C array).
@inline(__always)
func openFile(_ path: String, _ flags: Int32) -> Int32 {
    path.withCString { open($0, flags) }
}

@inline(__always)
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

extension AssetError {
    /// The error for a file of `size` bytes, larger than the `limit` on what is read.
    static func fileTooLarge(path: String, size: Int, limit: Int) -> AssetError {
        AssetError(path: path, category: .limitExceeded, reason: "file is \(size) bytes; the limit is \(limit)")
    }

    /// Where `path` leads, when it is a symbolic link (whose target, then, is missing).
    private static func danglingLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The error for a failed system call (`open`, `stat`, `read`, `pread`) on `path`, whose
    /// `errno` was `code`: ``Category/fileNotFound`` ("no such file", or the target of a
    /// dangling symbolic link) for `ENOENT` and `ENOTDIR`, else ``Category/unreadable`` with
    /// the system's words ("cannot read: Permission denied"). Read `errno` right after the call
    /// fails, before anything else can change it.
    public init(errno code: Int32, path: String) {
        switch code {
        case ENOENT, ENOTDIR:
            if let target = AssetError.danglingLinkTarget(path) {
                self.init(path: path, category: .fileNotFound, reason: "a symbolic link to \(target), which does not exist")
            } else {
                self.init(path: path, category: .fileNotFound, reason: "no such file")
            }
        default:
            self.init(path: path, category: .unreadable, reason: "cannot read: \(String(cString: strerror(code)))")
        }
    }

    /// ``init(errno:path:)``, by its older name.
    package static func fromErrno(_ code: Int32, path: String) -> AssetError {
        AssetError(errno: code, path: path)
    }
}
