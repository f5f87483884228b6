#if canImport(Glibc)
    import Glibc
#endif

/// A whole file read with one `open`, one `fstat` and `read` calls into one array: what a bare
/// decode loop does, and what the library's own file reading must not be slower than.
public enum BareFile {
    /// The bytes of the file at `path`, or `nil` if it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                count += got
            }
            failed = count != size
        }
        return failed ? nil : bytes
    }
}
