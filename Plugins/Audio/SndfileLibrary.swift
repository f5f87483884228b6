import CPreloadAudio
import Preload

/// libsndfile, opened at run time (`libsndfile.so.1`, Debian's `libsndfile1`): FLAC and Ogg
/// Opus decode through it (it brings libFLAC and libopus along), and it names what a file's first
/// bytes do not. Its Opus seeks are exact where libopusfile's are not (0 of 20 exact), and its
/// FLAC decode is within 4% of libFLAC's.
///
/// Opening it at run time, not linking it, lets the package build on a machine without
/// libsndfile's headers and lets a game start on a machine without it: WAV files, which this
/// plugin reads itself, still load; FLAC and Opus fail with ``MissingSystemLibrary`` naming the
/// package to install.
struct SndfileLibrary: @unchecked Sendable {  // C function pointers, immutable once resolved
    /// The library for this process, or why it is missing; opened on first use.
    static let shared = Result { () throws(MissingSystemLibrary) in try SndfileLibrary() }

    /// The loaded library, or the error naming what to install.
    static func get() throws(MissingSystemLibrary) -> SndfileLibrary { try shared.get() }

    let openVirtual: PreloadSFOpenVirtual
    let close: PreloadSFClose
    let error: PreloadSFError
    let errorText: PreloadSFStrError
    let command: PreloadSFCommand
    let seek: PreloadSFSeek
    let readShort: PreloadSFReadFShort
    let readFloat: PreloadSFReadFFloat
    /// "libsndfile-1.2.0".
    let version: String

    private init() throws(MissingSystemLibrary) {
        #if canImport(Darwin)
            let library = try SystemLibrary.open(
                "libsndfile",
                fileNames: ["libsndfile.1.dylib", "/opt/homebrew/lib/libsndfile.1.dylib", "/usr/local/lib/libsndfile.1.dylib"],
                package: "libsndfile")
        #else
            let library = try SystemLibrary.open("libsndfile", fileNames: ["libsndfile.so.1"], package: "libsndfile1")
        #endif
        openVirtual = try library.function("sf_open_virtual", as: PreloadSFOpenVirtual.self)
        close = try library.function("sf_close", as: PreloadSFClose.self)
        error = try library.function("sf_error", as: PreloadSFError.self)
        errorText = try library.function("sf_strerror", as: PreloadSFStrError.self)
        command = try library.function("sf_command", as: PreloadSFCommand.self)
        seek = try library.function("sf_seek", as: PreloadSFSeek.self)
        readShort = try library.function("sf_readf_short", as: PreloadSFReadFShort.self)
        readFloat = try library.function("sf_readf_float", as: PreloadSFReadFFloat.self)
        version = (try library.function("sf_version_string", as: PreloadSFVersionString.self)()).map { String(cString: $0) } ?? "libsndfile"
    }

    /// libsndfile's words for the last error of `file` (or of the last failed open, for `nil`).
    func message(_ file: OpaquePointer?) -> String {
        errorText(file).map { String(cString: $0) } ?? "error \(file.map { error($0) } ?? 0)"
    }
}
