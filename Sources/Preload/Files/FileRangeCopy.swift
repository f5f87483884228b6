#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies a run of bytes from one open file to another without bringing them through this
/// process's memory: `copy_file_range(2)` (an in-kernel copy, or a reflink where the file system
/// shares blocks: Btrfs, XFS), falling back to `pread`/`write` through a buffer where the kernel
/// cannot (`EXDEV`, `ENOSYS`, `EINVAL`, `EOPNOTSUPP`: another file system, an old kernel, a C
/// library without it). The bytes are read at an offset of the source and appended at the
/// destination's file position.
public enum FileRangeCopy {
    /// Why bytes could not be copied: the system's reason.
    public struct CopyError: Error, Sendable, CustomStringConvertible {
        /// The system's reason (`strerror`), or that the source ended early.
        public let reason: String
        public var description: String { reason }
    }

    /// Copies `count` bytes of `source` from `offset` to `destination`'s position (which moves
    /// past them). Throws ``CopyError`` when a read or a write fails or the source ends first.
    public static func copy(from source: Int32, at offset: UInt64, count: Int, to destination: Int32) throws(CopyError) {
        var done = 0
        if let kernelCopy {
            var from = Int64(offset)
            while done < count {
                let copied = kernelCopy(source, &from, destination, nil, count - done, 0)
                if copied > 0 {
                    done += copied
                    continue
                }
                if copied == 0 { throw CopyError(reason: "the file ends before byte \(offset + UInt64(count))") }
                if errno == EINTR { continue }
                guard [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EPERM].contains(errno) else { throw CopyError(reason: String(cString: strerror(errno))) }
                break  // the kernel cannot copy between these files: through a buffer
            }
        }
        guard done < count else { return }
        try copyThroughMemory(from: source, at: offset + UInt64(done), count: count - done, to: destination)
    }

    /// `pread` and `write` through a 1 MiB buffer.
    static func copyThroughMemory(from source: Int32, at offset: UInt64, count: Int, to destination: Int32) throws(CopyError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 20), alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        while done < count {
            let read = pread(source, buffer.baseAddress!, min(buffer.count, count - done), off_t(offset) + off_t(done))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else {
                throw CopyError(reason: read == 0 ? "the file ends before byte \(offset + UInt64(count))" : String(cString: strerror(errno)))
            }
            var written = 0
            while written < read {
                let result = write(destination, buffer.baseAddress! + written, read - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { throw CopyError(reason: String(cString: strerror(errno))) }
                written += result
            }
            done += read
        }
    }

    /// Whether ``copy(from:at:count:to:)`` shares the bytes' blocks rather than copying them on the
    /// file system holding the file open as `descriptor` (Btrfs and XFS reflink in
    /// `copy_file_range`): there it moves no data. Elsewhere (ext4) the kernel copies page by page,
    /// and one pass through a buffer that also reads the bytes for a checksum is cheaper
    /// (docs/benchmarks.md, issue 52's patch speed).
    public static func sharesBlocks(_ descriptor: Int32) -> Bool {
        #if os(Linux)
            // `struct statfs` (sys/vfs.h, no module) begins with its `long f_type`; 512 bytes hold it all.
            typealias FileSystemStatus = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32
            guard kernelCopy != nil, let fileSystemStatus = libraryFunction("fstatfs", as: FileSystemStatus.self) else { return false }
            let status = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
            defer { status.deallocate() }
            guard fileSystemStatus(descriptor, status) == 0 else { return false }
            return [0x9123_683E, 0x5846_5342].contains(status.load(as: Int.self))  // BTRFS_SUPER_MAGIC, XFS_SUPER_MAGIC
        #else
            return false
        #endif
    }

    /// Asks the kernel to start writing `count` bytes of the file open as `descriptor` from
    /// `offset` to disk, without waiting (`sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE`): a
    /// file flushed at its end (``AtomicFile/commit()``) then waits only for its last bytes, its
    /// writing overlapped with the copying. Nothing where the C library lacks it.
    public static func startWriteback(_ descriptor: Int32, from offset: UInt64, count: UInt64) {
        _ = startWriting?(descriptor, Int64(offset), Int64(count), 2)  // SYNC_FILE_RANGE_WRITE
    }

    private typealias StartWriting = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32

    /// `sync_file_range` from the C library already loaded, as ``kernelCopy``.
    private static let startWriting = libraryFunction("sync_file_range", as: StartWriting.self, unless: "PRELOAD_NO_EARLY_WRITEBACK")

    private typealias KernelCopy = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int

    /// `copy_file_range` from the C library already loaded (Swift's Glibc module leaves it out:
    /// it is a GNU extension); `nil` where there is none. PRELOAD_NO_COPY_FILE_RANGE set: always
    /// through a buffer (to measure the two against each other).
    private static let kernelCopy = libraryFunction("copy_file_range", as: KernelCopy.self, unless: "PRELOAD_NO_COPY_FILE_RANGE")

    /// The C library's function `name`, found in what is already loaded (RTLD_DEFAULT: the GNU
    /// extensions Swift's Glibc module leaves out), as `type`; `nil` where there is none, or
    /// where the environment sets `disabled`.
    private static func libraryFunction<Function>(_ name: String, as type: Function.Type, unless disabled: String? = nil) -> Function? {
        #if os(Linux)
            guard disabled.map({ getenv($0) == nil }) ?? true, let address = dlsym(nil, name) else { return nil }
            return unsafeBitCast(address, to: type)
        #else
            return nil
        #endif
    }
}
