import CPreloadAudio
import Preload

/// libvorbisfile, opened at run time (`libvorbisfile.so.3`, Debian's `libvorbisfile3`): Ogg
/// Vorbis decodes through it. Chosen over libsndfile for Vorbis because libsndfile 1.2.0 seeks
/// wrongly into a file's last page (every frame after 250,000 of the 264,600 of `theme.ogg`
/// differs after a seek) and opens a file in 342 µs against libvorbisfile's 90 µs; the decoded
/// float samples are identical.
struct VorbisLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation(
        "libvorbisfile", soname: "libvorbisfile.so.3", debian: "libvorbisfile3", dylib: "libvorbisfile.3.dylib", homebrew: "libvorbis")
    static let shared = opened()

    let openCallbacks: PreloadOVOpenCallbacks
    let clear: PreloadOVClear
    let pcmTotal: PreloadOVPcmTotal
    let info: PreloadOVInfo
    let readFloat: PreloadOVReadFloat
    let read: PreloadOVRead
    let pcmSeek: PreloadOVPcmSeek

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        openCallbacks = try library.function("ov_open_callbacks")
        clear = try library.function("ov_clear")
        pcmTotal = try library.function("ov_pcm_total")
        info = try library.function("ov_info")
        readFloat = try library.function("ov_read_float")
        read = try library.function("ov_read")
        pcmSeek = try library.function("ov_pcm_seek")
    }
}

/// An Ogg Vorbis file open in libvorbisfile, read from bytes in memory.
final class VorbisDecoder: AudioFrames {
    private let library: VorbisLibrary
    private let file: UnsafeMutablePointer<PreloadOggVorbisFile>
    private let memory: UnsafeMutablePointer<PreloadAudioMemory>
    let sampleRate: Int
    let channels: Int
    let frameCount: Int
    var encoding: AudioEncoding { .vorbis }

    /// Opens the Ogg Vorbis file in `bytes`, which must stay valid while the decoder lives.
    init(_ bytes: UnsafeRawBufferPointer) throws(any Error) {
        let library = try VorbisLibrary.shared.get()
        memory = .reading(bytes)
        file = .allocate(capacity: 1)
        let opened = library.openCallbacks(memory, file, nil, 0, preload_vorbis_memory_callbacks())
        guard opened == 0 else {  // libvorbisfile cleared the file itself
            file.deallocate()
            memory.deallocate()
            throw Self.error(Int(opened), while: "opening", consumedAll: false)
        }
        let info = library.info(file, -1)
        let total = library.pcmTotal(file, -1)
        guard let info, info.pointee.channels > 0, info.pointee.rate > 0, total >= 0 else {
            _ = library.clear(file)
            file.deallocate()
            memory.deallocate()
            throw AudioDecodeError.corrupt("the Vorbis headers give no channels, rate or length")
        }
        guard info.pointee.channels <= Int32(WAVFile.maximumChannels) else {
            _ = library.clear(file)
            file.deallocate()
            memory.deallocate()
            throw AudioDecodeError.unsupported("\(info.pointee.channels) channels (at most \(WAVFile.maximumChannels))")
        }
        self.library = library
        self.channels = Int(info.pointee.channels)
        self.sampleRate = Int(info.pointee.rate)
        self.frameCount = Int(total)
    }

    deinit {
        _ = library.clear(file)
        file.deallocate()
        memory.deallocate()
    }

    /// Float frames come from `ov_read_float`, interleaved here; 16-bit ones from `ov_read`,
    /// libvorbisfile's own conversion (× 32768, rounded, clipped), interleaved by it.
    func read(_ frames: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int {
        var done = 0
        while done < frames {
            var link: Int32 = 0
            let read: Int
            switch format {
            case .int16:
                let bytes = library.read(
                    file, (destination + done * channels * 2).assumingMemoryBound(to: CChar.self), Int32(min(frames - done, 16384) * channels * 2),
                    0, 2, 1, &link)
                read = bytes > 0 ? Int(bytes) / (channels * 2) : Int(bytes)
            case .float32:
                var planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
                read = Int(library.readFloat(file, &planes, Int32(min(frames - done, 4096)), &link))
                if read > 0, let planes {
                    let out = destination.assumingMemoryBound(to: Float.self) + done * channels
                    for channel in 0..<channels {
                        guard let plane = planes[channel] else { continue }
                        for frame in 0..<read { out[frame * channels + channel] = plane[frame] }
                    }
                }
            }
            if read == 0 { break }
            guard read > 0 else {
                throw Self.error(read, while: "decoding frame \(done)", consumedAll: memory.pointee.position >= memory.pointee.count)
            }
            if link != 0, let info = library.info(file, link), Int(info.pointee.channels) != channels || Int(info.pointee.rate) != sampleRate {
                throw AudioDecodeError.unsupported("a chained Ogg stream whose later part changes the channels or the rate")
            }
            done += read
        }
        return done
    }

    func seek(toFrame frame: Int) -> Bool {
        library.pcmSeek(file, Int64(frame)) == 0
    }

    /// The error for libvorbisfile's code `code` (OV_HOLE, OV_EBADHEADER, ...).
    private static func error(_ code: Int, while doing: String, consumedAll: Bool) -> AudioDecodeError {
        let name =
            switch code {
            case -3: "a gap in the data (OV_HOLE)"
            case -128: "a read error (OV_EREAD)"
            case -132: "not Vorbis data (OV_ENOTVORBIS)"
            case -133: "an invalid Vorbis header (OV_EBADHEADER)"
            case -134: "an unsupported Vorbis version (OV_EVERSION)"
            case -136: "an invalid packet (OV_EBADPACKET)"
            case -137: "a broken link in a chained stream (OV_EBADLINK)"
            default: "error \(code)"
            }
        if consumedAll { return .truncated("the file ends inside the Vorbis data: \(name) while \(doing)") }
        if code == -132 { return .notAudio("libvorbisfile: \(name)") }
        if code == -134 { return .unsupported("libvorbisfile: \(name)") }
        return .corrupt("libvorbisfile: \(name) while \(doing)")
    }
}
