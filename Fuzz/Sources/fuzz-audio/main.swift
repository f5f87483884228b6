import FuzzSupport
import Preload
import PreloadAudio

/// Loads the input as a WAV file (the container this package parses itself; the other encodings'
/// parsers are the libraries' own) as a sound in both sample formats and as music read to the end
/// and after a seek: a whole sound of exactly its frames, a stream that gives exactly the frames
/// the file declares, or a typed error; never a read past the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = AssetBytes(data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    guard bytes.count < 4 || Array(bytes.prefix(4)) == Array("RIFF".utf8) else { return 0 }  // WAV only
    for format in AudioSampleFormat.allCases {
        var settings = AudioLoaderSettings(kind: .sound, sampleFormat: format)
        settings.longestDuration = .seconds(600)
        guard let (asset, _) = try? AudioLoader.load(bytes, settings: settings), let sound = asset as? Sound else { continue }
        precondition(sound.samples.count == sound.frameCount * sound.format.bytesPerFrame, "a sound holds exactly its frames")
        settings.kind = .music
        guard let (loaded, _) = try? AudioLoader.load(bytes, settings: settings), let music = loaded as? Music,
            let stream = try? music.makeStream()
        else { preconditionFailure("a file that decodes as a sound opens as music") }
        var streamed: [UInt8] = []
        while let block = try? stream.read(frames: 777), !block.isEmpty { streamed += block }
        precondition(streamed == sound.samples.array, "the stream gives the sound's samples")
        if music.frameCount > 0 {
            let frame = music.frameCount / 3
            try! stream.seek(toFrame: frame)
            let after = try! stream.read(frames: 100)
            let start = frame * sound.format.bytesPerFrame
            precondition(after == Array(sound.samples.array[start..<min(start + after.count, sound.samples.count)]), "a seek lands on its frame")
        }
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_audio_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAudio)
}
