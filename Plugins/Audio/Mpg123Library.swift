import CPreloadAudio
import Preload

/// libmpg123, opened at run time (`libmpg123.so.0`, Debian's `libmpg123-0`): MP3 decodes
/// through it. Chosen over libsndfile for MP3 because libsndfile stops at libmpg123's estimated
/// length when a file has no LAME/Xing header (a 60-second VBR file decoded as 31.8 seconds,
/// libsndfile issue #1001); with a full scan libmpg123 gives every frame. Float output is
/// identical to libsndfile's, gapless (encoder delay and padding removed) where the header says.
struct Mpg123Library: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation(
        "libmpg123", soname: "libmpg123.so.0", debian: "libmpg123-0", dylib: "libmpg123.0.dylib", homebrew: "mpg123")
    /// Opened (and initialised) on first use.
    static let shared = opened()

    let new: PreloadMpg123New
    let delete: PreloadMpg123Delete
    let param: PreloadMpg123Param
    let replaceReaderHandle: PreloadMpg123ReplaceReaderHandle
    let openHandle: PreloadMpg123OpenHandle
    let close: PreloadMpg123Close
    let scan: PreloadMpg123Scan
    let length: PreloadMpg123Length
    let getFormat: PreloadMpg123GetFormat
    let read: PreloadMpg123Read
    let seek: PreloadMpg123Seek
    let errorText: PreloadMpg123StrError

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        new = try library.function("mpg123_new")
        delete = try library.function("mpg123_delete")
        param = try library.function("mpg123_param")
        replaceReaderHandle = try library.function("mpg123_replace_reader_handle")
        openHandle = try library.function("mpg123_open_handle")
        close = try library.function("mpg123_close")
        scan = try library.function("mpg123_scan")
        length = try library.function("mpg123_length")
        getFormat = try library.function("mpg123_getformat")
        read = try library.function("mpg123_read")
        seek = try library.function("mpg123_seek")
        errorText = try library.function("mpg123_strerror")
        _ = try library.function("mpg123_init", as: PreloadMpg123Init.self)()  // required before 1.27, harmless after
    }

    /// libmpg123's words for the last error of `handle`.
    func message(_ handle: OpaquePointer) -> String {
        errorText(handle).map { String(cString: $0) } ?? "unknown libmpg123 error"
    }
}

/// An MP3 open in libmpg123, read from bytes in memory, decoded by libmpg123 straight to the
/// sample type asked for at opening (its own 16-bit synthesis, or float).
final class Mpg123Decoder: AudioFrames {
    private let library: Mpg123Library
    private let handle: OpaquePointer
    private let memory: UnsafeMutablePointer<PreloadAudioMemory>
    let sampleRate: Int
    let channels: Int
    let frameCount: Int
    var encoding: AudioEncoding { .mp3 }
    /// What libmpg123 decodes to.
    private let output: AudioSampleFormat

    /// Opens the MP3 in `bytes`, which must stay valid while the decoder lives, decoding to
    /// `output`, and scans it (frame headers only) for its exact length.
    init(_ bytes: UnsafeRawBufferPointer, output: AudioSampleFormat) throws(any Error) {
        let library = try Mpg123Library.shared.get()
        var status: Int32 = 0
        guard let handle = library.new(nil, &status) else { throw AudioDecodeError.corrupt("libmpg123 could not make a decoder (\(status))") }
        memory = .reading(bytes)
        self.library = library
        self.handle = handle
        self.output = output
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        let flags = Int(PRELOAD_MPG123_QUIET | PRELOAD_MPG123_GAPLESS | (output == .float32 ? PRELOAD_MPG123_FORCE_FLOAT : 0))
        guard library.param(handle, Int32(PRELOAD_MPG123_ADD_FLAGS), flags, 0) == PRELOAD_MPG123_OK,
            library.replaceReaderHandle(handle, preload_mpg123_memory_read, preload_mpg123_memory_seek, nil) == PRELOAD_MPG123_OK,
            library.openHandle(handle, memory) == PRELOAD_MPG123_OK,
            library.scan(handle) == PRELOAD_MPG123_OK,
            library.getFormat(handle, &rate, &channels, &encoding) == PRELOAD_MPG123_OK
        else {
            let message = library.message(handle)
            _ = library.close(handle)
            library.delete(handle)
            memory.deallocate()
            throw message.contains("no stream") || message.contains("No stream") || message.contains("resync")
                ? AudioDecodeError.notAudio("libmpg123: \(message)") : AudioDecodeError.corrupt("libmpg123: \(message)")
        }
        let length = Int(library.length(handle))
        let expected = output == .float32 ? PRELOAD_MPG123_ENC_FLOAT_32 : PRELOAD_MPG123_ENC_SIGNED_16
        guard rate > 0, channels > 0, channels <= 2, encoding == Int32(expected), length >= 0 else {
            _ = library.close(handle)
            library.delete(handle)
            memory.deallocate()
            throw AudioDecodeError.corrupt("libmpg123 reports \(channels) channels at \(rate) Hz and \(length) frames")
        }
        self.sampleRate = rate
        self.channels = Int(channels)
        self.frameCount = length
    }

    deinit {
        _ = library.close(handle)
        library.delete(handle)
        memory.deallocate()
    }

    func read(_ frames: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int {
        precondition(format == output, "an MP3 decoder gives the sample type it was opened for")
        let bytesPerFrame = channels * format.bytesPerSample
        var filled = 0  // bytes
        while filled < frames * bytesPerFrame {
            var done = 0
            let status = library.read(handle, destination + filled, frames * bytesPerFrame - filled, &done)
            filled += done
            if status == PRELOAD_MPG123_DONE { break }
            if status == PRELOAD_MPG123_NEW_FORMAT {
                var rate = 0
                var channels: Int32 = 0
                var encoding: Int32 = 0
                _ = library.getFormat(handle, &rate, &channels, &encoding)
                guard rate == sampleRate, Int(channels) == self.channels else {
                    throw .unsupported("an MP3 whose rate or channels change part-way (\(rate) Hz, \(channels) channels)")
                }
                continue
            }
            guard status == PRELOAD_MPG123_OK else {
                if memory.pointee.position >= memory.pointee.count {
                    throw .truncated("the file ends inside the MP3 data (libmpg123: \(library.message(handle)))")
                }
                throw .corrupt("libmpg123: \(library.message(handle))")
            }
            if done == 0 { break }
        }
        return filled / bytesPerFrame
    }

    func seek(toFrame frame: Int) -> Bool {
        library.seek(handle, frame, 0 /* SEEK_SET */) == frame
    }
}
