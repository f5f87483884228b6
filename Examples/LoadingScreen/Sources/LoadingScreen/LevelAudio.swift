import CSDL2
import Preload
import PreloadAudio

/// The level's audio on one SDL device, started when the level is ready: the jump sound plays
/// once, mixed over the theme, which streams and loops. The device runs at the sound's rate and
/// channels in 16-bit samples; the theme goes through an `SDL_AudioStream` to that format a block
/// at a time, as the device asks for it: the track is never decoded up front.
///
/// With `SDL_AUDIODRIVER=disk` SDL writes what reached the device to `SDL_DISKAUDIOFILE`, which
/// `AudioCheck` compares with the sound and music; `SDL_AUDIODRIVER=dummy` plays to nothing. Where
/// no device opens, the example prints one line and goes on without sound (without a sound card,
/// quietly: `AudioDriverChoice`).
final class LevelAudio {
    private let device: SDL_AudioDeviceID
    private let mixer: Unmanaged<Mixer>

    private init(device: SDL_AudioDeviceID, mixer: Unmanaged<Mixer>) {
        self.device = device
        self.mixer = mixer
    }

    /// Opens the device and starts `sound` over `music`; `nil`, after printing one line saying
    /// why, when there is no audio to open.
    static func start(sound: Sound, music: Music) -> LevelAudio? {
        func noSound(_ why: String) -> LevelAudio? {
            print("no sound: \(why): \(String(cString: SDL_GetError()))")
            return nil
        }
        if let failure = AudioDriverChoice.start() {
            print("no sound: \(failure)")
            return nil
        }
        let format = AudioFormat(sampleRate: sound.format.sampleRate, channels: sound.format.channels, sampleFormat: .int16)
        let mixer: Mixer
        do {
            mixer = try Mixer(sound: sound, music: music, device: format)
        } catch {
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            print("no sound: \(error)")
            return nil
        }
        let retained = Unmanaged.passRetained(mixer)
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(format.sampleRate)
        wanted.format = SDL_AudioFormat(AUDIO_S16SYS)
        wanted.channels = UInt8(format.channels)
        wanted.samples = 1024
        wanted.userdata = retained.toOpaque()
        wanted.callback = { userdata, stream, length in
            guard let userdata, let stream else { return }
            Unmanaged<Mixer>.fromOpaque(userdata).takeUnretainedValue().fill(UnsafeMutableRawBufferPointer(start: stream, count: Int(length)))
        }
        // No allowed changes: SDL converts to the hardware's format itself if it must.
        let device = SDL_OpenAudioDevice(nil, 0, &wanted, nil, 0)
        guard device != 0 else {
            retained.release()
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            return noSound("SDL_OpenAudioDevice (\(format))")
        }
        SDL_PauseAudioDevice(device, 0)
        print("playing \(sound.frameCount) frames of sound over \(music.duration) s of music (streamed, looping) on \(format)")
        return LevelAudio(device: device, mixer: retained)
    }

    /// Stops the device; the callback has returned for the last time when this returns.
    func close() {
        SDL_CloseAudioDevice(device)
        mixer.release()
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }
}

/// What the device's callback runs, on SDL's audio thread. Unchecked `Sendable`: made before the
/// device opens and released after it closes, and in between touched only by SDL's callback,
/// which SDL runs one call at a time.
private final class Mixer: @unchecked Sendable {
    /// The sound in the device's format, and the next of its samples to play.
    private let sound: [Int16]
    private var soundPosition = 0
    /// The theme's decoder, the stream converting its blocks to the device's format, and whether
    /// the track has ended (never, while it loops).
    private let music: MusicStream
    private let converter: OpaquePointer
    private var musicEnded = false
    /// One block of the track as decoded.
    private var block: [UInt8]

    /// Frames of the track decoded at a time.
    static let blockFrames = 1024

    init(sound: Sound, music: Music, device: AudioFormat) throws {
        let stream = try music.makeStream()
        stream.isLooping = true
        guard let converter = Self.converter(from: stream.format, to: device) else { throw AudioSetupError.converter(stream.format, device) }
        // The sound is decoded already: converted once, whole, if the device's format differs.
        guard let soundConverter = Self.converter(from: sound.format, to: device) else {
            SDL_FreeAudioStream(converter)
            throw AudioSetupError.converter(sound.format, device)
        }
        defer { SDL_FreeAudioStream(soundConverter) }
        let put = sound.samples.withUnsafeBytes { SDL_AudioStreamPut(soundConverter, $0.baseAddress, Int32($0.count)) }
        let flushed = put == 0 && SDL_AudioStreamFlush(soundConverter) == 0
        var converted = [Int16](repeating: 0, count: flushed ? Int(SDL_AudioStreamAvailable(soundConverter)) / 2 : 0)
        let got = converted.withUnsafeMutableBytes { SDL_AudioStreamGet(soundConverter, $0.baseAddress, Int32($0.count)) }
        guard flushed, got >= 0 else {
            SDL_FreeAudioStream(converter)
            throw AudioSetupError.converter(sound.format, device)
        }
        converted.removeLast(converted.count - Int(got) / 2)
        self.sound = converted
        self.music = stream
        self.converter = converter
        self.block = [UInt8](repeating: 0, count: Self.blockFrames * stream.format.bytesPerFrame)
    }

    deinit {
        SDL_FreeAudioStream(converter)
    }

    /// An `SDL_AudioStream` from `source` to `device`'s 16-bit samples.
    private static func converter(from source: AudioFormat, to device: AudioFormat) -> OpaquePointer? {
        let sourceFormat = source.sampleFormat == .float32 ? SDL_AudioFormat(AUDIO_F32SYS) : SDL_AudioFormat(AUDIO_S16SYS)
        return SDL_NewAudioStream(
            sourceFormat, UInt8(source.channels), Int32(source.sampleRate), SDL_AudioFormat(AUDIO_S16SYS), UInt8(device.channels),
            Int32(device.sampleRate))
    }

    /// Fills `output` with the theme, decoding and converting a block at a time until it is
    /// full, then adds what is left of the sound (saturating).
    func fill(_ output: UnsafeMutableRawBufferPointer) {
        var filled = 0
        while filled < output.count {
            let got = SDL_AudioStreamGet(converter, output.baseAddress! + filled, Int32(output.count - filled))
            if got > 0 {
                filled += Int(got)
                continue
            }
            if got < 0 || musicEnded { break }
            let music = music
            let frames = (try? block.withUnsafeMutableBytes { block in try music.read(into: block) }) ?? 0
            if frames == 0 {
                musicEnded = true
                SDL_AudioStreamFlush(converter)
                continue
            }
            let put = block.withUnsafeBytes { SDL_AudioStreamPut(converter, $0.baseAddress, Int32(frames * music.format.bytesPerFrame)) }
            if put != 0 { musicEnded = true }
        }
        if filled < output.count { (output.baseAddress! + filled).initializeMemory(as: UInt8.self, repeating: 0, count: output.count - filled) }
        let samples = output.bindMemory(to: Int16.self)
        let count = min(samples.count, sound.count - soundPosition)
        for index in 0..<count {
            samples[index] = samples[index].addingSaturating(sound[soundPosition + index])
        }
        soundPosition += count
    }
}

extension Int16 {
    /// The sum, clamped to the type's range: how two sources mix without wrapping round.
    func addingSaturating(_ other: Int16) -> Int16 {
        Int16(clamping: Int32(self) + Int32(other))
    }
}

/// Why the level's audio could not be set up.
enum AudioSetupError: Error, CustomStringConvertible {
    case converter(AudioFormat, AudioFormat)

    var description: String {
        switch self {
        case .converter(let source, let device): "SDL_NewAudioStream from \(source) to \(device): \(String(cString: SDL_GetError()))"
        }
    }
}
