import Preload
import PreloadConcurrency

/// A decoder over one ``Music``'s encoded bytes: reads frames in order, seeks, and loops.
///
/// Made by ``Music/makeStream(sampleFormat:)``. Safe to share between threads (the game thread
/// seeks while the audio thread reads): every call takes the stream's lock. Decoding happens in
/// ``read(into:)``, a block at a time, so memory stays the decoder's own few hundred kilobytes
/// however long the track is.
public final class MusicStream: Sendable {
    /// The rate, channels and sample type of the frames ``read(into:)`` writes.
    public let format: AudioFormat
    /// How many frames the track plays, as the file says.
    public let frameCount: Int
    /// The encoding being decoded.
    public let encoding: AudioEncoding
    /// The bytes the decoder reads; held so they stay valid (``AssetBytes`` never move).
    private let encoded: AssetBytes
    private let state: PreloadMutex<State>

    private struct State: ~Copyable {
        var frames: any AudioFrames
        var position = 0
        var isLooping = false
        var loopStart = 0
    }

    init(_ encoded: AssetBytes, sampleFormat: AudioSampleFormat, decoders: [any AudioDecoder]) throws {
        let bytes = encoded.withUnsafeBytes { $0 }  // AssetBytes keep their address while a copy is held
        let frames = try openAudio(bytes, sampleFormat: sampleFormat, decoders: decoders).frames
        self.encoded = encoded
        self.encoding = frames.encoding
        self.format = AudioFormat(sampleRate: frames.sampleRate, channels: frames.channels, sampleFormat: sampleFormat)
        self.frameCount = frames.frameCount
        self.state = PreloadMutex(State(frames: frames))
    }

    /// The next frame ``read(into:)`` gives.
    public var position: Int { state.withLock { $0.position } }

    /// Whether reading past the last frame goes on from ``loopStart`` rather than ending.
    public var isLooping: Bool {
        get { state.withLock { $0.isLooping } }
        set { state.withLock { $0.isLooping = newValue } }
    }

    /// Where a looping stream starts again: frame 0 unless set (an intro that plays once).
    public var loopStart: Int {
        get { state.withLock { $0.loopStart } }
        set { state.withLock { $0.loopStart = min(max(newValue, 0), frameCount) } }
    }

    /// Decodes as many whole frames as `buffer` holds (its size divided by the format's bytes per
    /// frame) and returns how many it wrote: fewer only at the end of a stream that does not
    /// loop, 0 once it has ended.
    /// - Throws: ``AudioDecodeError`` when the data is damaged, or ends before the frames the file
    ///   declares (``AudioDecodeError/truncated(_:)``, when the stream reaches the cut).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(AudioDecodeError) -> Int {
        let wanted = buffer.count / format.bytesPerFrame
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        let sampleFormat = format.sampleFormat
        let bytesPerFrame = format.bytesPerFrame
        let frameCount = frameCount
        let encoding = encoding
        return try state.withLock { (state: inout State) throws(AudioDecodeError) -> Int in
            var written = 0
            var emptyReadsInARow = 0
            while written < wanted {
                let read = try state.frames.read(wanted - written, as: sampleFormat, into: base + written * bytesPerFrame)
                if read > 0 {
                    written += read
                    state.position += read
                    emptyReadsInARow = 0
                    continue
                }
                // The end, which must be the track's: a decoder that stops short met a file cut there.
                if state.position < frameCount { throw .endsEarly(encoding, after: state.position, of: frameCount) }
                // Loop, unless the loop would give nothing (or already gave nothing).
                emptyReadsInARow += 1
                guard state.isLooping, state.loopStart < frameCount, emptyReadsInARow < 2,
                    state.frames.seek(toFrame: state.loopStart)
                else { break }
                state.position = state.loopStart
            }
            return written
        }
    }

    /// Reads up to `frames` frames (fewer at the end of a stream that does not loop) as bytes.
    public func read(frames: Int) throws(AudioDecodeError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(frames, 0) * format.bytesPerFrame)
        let result = bytes.withUnsafeMutableBytes { buffer in Result { () throws(AudioDecodeError) in try self.read(into: buffer) } }
        let read = try result.get()
        bytes.removeLast(bytes.count - read * format.bytesPerFrame)
        return bytes
    }

    /// Moves to `frame` (0 is the start, ``frameCount`` the end).
    /// - Throws: ``AudioDecodeError/unsupported(_:)`` when the frame is outside the track or the
    ///   decoder cannot seek there.
    public func seek(toFrame frame: Int) throws(AudioDecodeError) {
        let frameCount = frameCount
        let encoding = encoding
        try state.withLock { (state: inout State) throws(AudioDecodeError) in
            guard frame >= 0, frame <= frameCount, state.frames.seek(toFrame: frame) else {
                throw .unsupported("cannot seek the \(encoding) stream to frame \(frame) of \(frameCount)")
            }
            state.position = frame
        }
    }
}
