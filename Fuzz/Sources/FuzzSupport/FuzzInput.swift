import CFuzzDriver
#if canImport(Glibc)
    import Glibc
#endif

/// The fuzzer's input as a file: the parsers under test read paths (packs are opened and read
/// with `pread`, atlases name their page files), so each input is written to one file per
/// process in `/dev/shm` (memory, not disk) and parsed from there.
public enum FuzzInput {
    /// Writes the `count` bytes at `data` to this process's input file, named `name` (which may
    /// start with one folder: `sheet.atlasc/sheet.plist`); returns its path.
    public static func write(_ data: UnsafePointer<UInt8>?, _ count: Int, name: String) -> String {
        let folder = "/dev/shm/preload-fuzz-\(getpid())"
        mkdir(folder, 0o700)
        if let slash = name.firstIndex(of: "/") { mkdir("\(folder)/\(name[..<slash])", 0o700) }
        let path = "\(folder)/\(name)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(descriptor >= 0, "cannot write \(path): \(String(cString: strerror(errno)))")
        var written = 0
        while written < count, let data {
            let got = Glibc.write(descriptor, data + written, count - written)
            precondition(got > 0, "cannot write \(path)")
            written += got
        }
        close(descriptor)
        return path
    }
}

/// Runs libFuzzer on `callback` (call it from the harness's entry point).
public func runFuzzer(
    argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
