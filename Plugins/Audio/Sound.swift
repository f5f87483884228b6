import Preload

/// Audio decoded up front: every frame as PCM in memory, ready to mix. What libGDX calls a
/// `Sound` and SDL_mixer a `Mix_Chunk`: for effects and short clips.
///
/// The samples live in the coordinator's pooled memory and count against its memory budget.
/// A sound made from a Phaser audio sprite also carries the sprite's named ``ranges``:
///
/// ```swift
/// import Preload
/// import PreloadAudio
///
/// func play(_ sound: Sound, marker: String) {
///     guard let range = sound.ranges[marker] else { return }
///     sound.samples.withUnsafeBytes { pcm in
///         let bytes = pcm[range.frames.lowerBound * sound.format.bytesPerFrame..<range.frames.upperBound * sound.format.bytesPerFrame]
///         print("queue \(bytes.count) bytes of \(sound.format)")  // SDL_QueueAudio(device, ...)
///     }
/// }
/// ```
public struct Sound: Asset {
    /// The frames, interleaved, in ``format``'s sample type.
    public let samples: AssetBytes
    /// The rate, channels and sample type of ``samples``.
    public let format: AudioFormat
    /// How many frames ``samples`` holds.
    public let frameCount: Int
    /// The encoding of the file it came from.
    public let encoding: AudioEncoding
    /// Named parts of the sound (an audio sprite's markers); empty for a plain file.
    public let ranges: [String: SoundRange]

    /// A sound of `frameCount` frames of `format` in `samples`, decoded from `encoding`, with
    /// named `ranges`.
    public init(samples: AssetBytes, format: AudioFormat, frameCount: Int, encoding: AudioEncoding, ranges: [String: SoundRange] = [:]) {
        precondition(samples.count == frameCount * format.bytesPerFrame, "a sound's samples must hold exactly its frames")
        self.samples = samples
        self.format = format
        self.frameCount = frameCount
        self.encoding = encoding
        self.ranges = ranges
    }

    /// How long it plays, in seconds.
    public var duration: Double { format.seconds(ofFrames: frameCount) }

    /// The same samples with `ranges` as their named parts.
    public func withRanges(_ ranges: [String: SoundRange]) -> Sound {
        Sound(samples: samples, format: format, frameCount: frameCount, encoding: encoding, ranges: ranges)
    }

    public var kind: AssetKind { .sound }
    public var byteCount: Int { samples.count }
}

/// A named part of a ``Sound``: the frames it plays and whether it loops (a Phaser audio
/// sprite's marker).
public struct SoundRange: Hashable, Sendable {
    /// The frames of the sound it plays.
    public var frames: Range<Int>
    /// Whether the part plays again from its start when it ends.
    public var loops: Bool

    /// A part playing `frames`, looping if `loops`.
    public init(frames: Range<Int>, loops: Bool = false) {
        self.frames = frames
        self.loops = loops
    }
}
