import Preload

/// Loads sounds and music: WAV (PCM 8/16/24/32-bit and float, WAVE_FORMAT_EXTENSIBLE), read by
/// the plugin itself; Ogg Vorbis through libvorbisfile, MP3 through libmpg123, FLAC, Ogg Opus and
/// WAVs of other codecs (Microsoft and IMA ADPCM, A-law, µ-law) through libsndfile, each opened
/// at run time (Debian's `libvorbisfile3`, `libmpg123-0` and `libsndfile1`: `.ci/system-packages
/// install audio`). Without one, only the files that need it fail, naming the package; a PCM or
/// float WAV always loads. A file cut short fails as ``AudioDecodeError/truncated(_:)``.
///
/// A file becomes a ``Sound`` (decoded now, into pooled memory) or ``Music`` (kept encoded,
/// decoded while it plays) as its request's ``AudioLoaderSettings`` say; by default a file that plays
/// for 10 seconds or less is a sound and a longer one music.
///
/// A third party adds a codec as an ``AudioDecoder`` in ``decoders``: its files are claimed by
/// their extension and content, and load as sounds and music as the plugin's own do.
///
/// ```swift
/// import Preload
/// import PreloadAudio
///
/// func loadLevelAudio() async throws {
///     let coordinator = try PreloadCoordinator(plugins: [AudioLoader()])
///     _ = try await coordinator.preload([.folder("sample-assets/audio", name: "audio")])
///     if let jump = coordinator.assets.asset(named: "audio/jump.wav", as: Sound.self) {
///         print("jump: \(jump.frameCount) frames of \(jump.format)")
///     }
/// }
/// ```
public struct AudioLoader: LoaderPlugin {
    /// "audio".
    public let identifier = "audio"
    /// Failed loads are reported as sounds (a loaded file says what it became).
    public let assetKind = AssetKind.sound
    /// WAV, Ogg (Vorbis or Opus), FLAC, MP3 and Opus names, and those of ``decoders``; other
    /// names are claimed by content.
    public let fileExtensions: Set<String>
    /// Enough for a RIFF/WAVE header, the other encodings' magic numbers and an ID3 tag.
    public let headerLength = 12

    /// The settings of a request that sets none of its own.
    public let defaults: AudioLoaderSettings

    /// Third parties' codecs, asked before the plugin's own encodings, in order.
    public let decoders: [any AudioDecoder]

    /// A loader whose requests without ``AudioLoaderSettings`` of their own load with `defaults`,
    /// decoding `decoders`' formats besides its own.
    public init(defaults: AudioLoaderSettings = AudioLoaderSettings(), decoders: [any AudioDecoder] = []) {
        self.defaults = defaults
        self.decoders = decoders
        fileExtensions = decoders.reduce(["wav", "wave", "ogg", "oga", "flac", "mp3", "opus"]) { $0.union($1.fileExtensions) }
    }

    /// The libraries this machine lacks among those Ogg Vorbis, MP3, FLAC and Ogg Opus need
    /// (WAV needs none), each the error its files fail with, naming the package to install:
    /// empty when every encoding loads.
    public static var missingLibraries: [MissingSystemLibrary] {
        var missing: [MissingSystemLibrary] = []
        if case .failure(let error) = VorbisLibrary.shared { missing.append(error) }
        if case .failure(let error) = Mpg123Library.shared { missing.append(error) }
        if case .failure(let error) = SndfileLibrary.shared { missing.append(error) }
        return missing
    }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.withUnsafeBytes { bytes in
            if WAVFile.matches(bytes) || decoders.contains(where: { $0.matches(bytes) }) { return true }
            return bytes.starts(with: "OggS".utf8) || bytes.starts(with: "fLaC".utf8) || (bytes.count >= 4 && bytes.starts(with: "ID3".utf8))
        }
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        let options = context.request.options
        var settings = options.contains(AudioLoaderSettings.self) ? options[AudioLoaderSettings.self] : defaults
        let spriteMap = options[AudioSpriteMap.self].path
        if spriteMap != nil { settings.kind = .sound }  // an audio sprite's parts play from memory
        let asset = try Self.load(
            try context.readContents(), settings: settings, decoders: decoders, memory: context.memory,
            checkCancellation: { try context.checkCancellation() }, progress: { context.reportProgress($0) },
            warn: { try context.warn($0) })
        guard let spriteMap, let sound = asset as? Sound else { return asset }
        let map = try context.files.read(spriteMap, limit: 16 << 20, memory: context.memory)
        do {
            return sound.withRanges(try AudioSpriteMap.ranges(map, sampleRate: sound.format.sampleRate, frameCount: sound.frameCount))
        } catch {
            throw AssetError(path: spriteMap, wrapping: error)
        }
    }

    /// Whether a file named with `fileExtension` ("ogg") decodes on this machine: its encoding
    /// is one the plugin reads and the library it needs is installed. A Phaser pack's `audio`
    /// entry loads the first of its URLs whose file exists and for which this holds.
    public static func decodes(fileExtension: String) -> Bool {
        switch fileExtension.lowercased() {
        case "wav", "wave": true
        case "ogg", "oga": (try? VorbisLibrary.shared.get()) != nil
        case "mp3": (try? Mpg123Library.shared.get()) != nil
        case "flac", "opus": (try? SndfileLibrary.shared.get()) != nil
        default: false
        }
    }

    /// Loads the audio file in `bytes` as the plugin does inside a batch, without a coordinator
    /// (a tool, a test, a fuzzer): a ``Sound`` decoded into `memory` or ``Music`` over `bytes`,
    /// as `settings` say (a third party's encodings through `decoders`), and what was irregular
    /// about the file.
    public static func load(
        _ bytes: AssetBytes, settings: AudioLoaderSettings = AudioLoaderSettings(), decoders: [any AudioDecoder] = [],
        memory: AssetMemory = .shared
    ) throws -> (asset: any Asset, warnings: [AssetWarning]) {
        var warnings: [AssetWarning] = []
        let asset = try load(
            bytes, settings: settings, decoders: decoders, memory: memory, checkCancellation: {}, progress: { _ in },
            warn: { warnings += $0 })
        return (asset, warnings)
    }

    /// Opens `contents`, checks its length, and keeps it as music or decodes it into a sound.
    private static func load(
        _ contents: AssetBytes, settings: AudioLoaderSettings, decoders: [any AudioDecoder], memory: AssetMemory,
        checkCancellation: () throws -> Void,
        progress: (Double) -> Void, warn: ([AssetWarning]) throws -> Void
    ) throws -> any Asset {
        try contents.withUnsafeBytes { bytes in  // AssetBytes keep their address while a copy is held
            let (frames, warnings) = try openAudio(bytes, sampleFormat: settings.sampleFormat, decoders: decoders)
            try warn(warnings)
            let seconds = Double(frames.frameCount) / Double(frames.sampleRate)
            if seconds > settings.longestDuration.seconds {
                throw AudioDecodeError.tooLong(seconds: seconds, limit: settings.longestDuration.seconds)
            }
            let format = AudioFormat(sampleRate: frames.sampleRate, channels: frames.channels, sampleFormat: settings.sampleFormat)
            let isMusic =
                switch settings.kind {
                case .sound: false
                case .music: true
                case .automatic: seconds > settings.longestSound.seconds
                }
            if isMusic {
                let ownDecoders = decoders.filter { $0.encoding == frames.encoding }  // what its streams reopen it with
                return Music(
                    encoded: contents, encoding: frames.encoding, format: format, frameCount: frames.frameCount, decoders: ownDecoders)
            }
            return try decode(frames, format: format, memory: memory, checkCancellation: checkCancellation, progress: progress)
        }
    }

    /// Frames decoded per step between progress reports and cancellation checks.
    static let framesPerStep = 16384

    /// Decodes every frame of `frames` into pooled memory, reporting progress and stopping when
    /// the load is cancelled.
    private static func decode(
        _ frames: any AudioFrames, format: AudioFormat, memory: AssetMemory, checkCancellation: () throws -> Void,
        progress: (Double) -> Void
    ) throws -> Sound {
        let total = frames.frameCount
        let bytesPerFrame = format.bytesPerFrame
        let samples = try AssetBytes(unsafeUninitializedCapacity: total * bytesPerFrame, memory: memory) { buffer, count in
            var done = 0
            while done < total {
                try checkCancellation()
                let read = try frames.read(
                    min(framesPerStep, total - done), as: format.sampleFormat, into: buffer.baseAddress! + done * bytesPerFrame)
                guard read > 0 else {
                    throw AudioDecodeError.endsEarly(frames.encoding, after: done, of: total)
                }
                done += read
                progress(Double(done) / Double(total))
            }
            count = done * bytesPerFrame
        }
        return Sound(samples: samples, format: format, frameCount: total, encoding: frames.encoding)
    }
}
