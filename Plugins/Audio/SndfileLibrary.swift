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
struct SndfileLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation(
        "libsndfile", soname: "libsndfile.so.1", debian: "libsndfile1", dylib: "libsndfile.1.dylib", homebrew: "libsndfile")
    static let shared = opened()

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

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        openVirtual = try library.function("sf_open_virtual")
        close = try library.function("sf_close")
        error = try library.function("sf_error")
        errorText = try library.function("sf_strerror")
        command = try library.function("sf_command")
        seek = try library.function("sf_seek")
        readShort = try library.function("sf_readf_short")
        readFloat = try library.function("sf_readf_float")
        version = (try library.function("sf_version_string", as: PreloadSFVersionString.self)()).map { String(cString: $0) } ?? "libsndfile"
    }

    /// libsndfile's words for the last error of `file` (or of the last failed open, for `nil`).
    func message(_ file: OpaquePointer?) -> String {
        errorText(file).map { String(cString: $0) } ?? "error \(file.map { error($0) } ?? 0)"
    }
}
