import CSDL2
import Foundation
import Preload
import PreloadAudio

// Checks what reached SDL's audio driver while LoadingScreen played, as the disk driver wrote it
// (SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=OUTPUT.raw): 16-bit frames at the jump sound's rate and
// channels. After any silence from before the device started, every frame must be the theme from
// its start (converted to that rate by an SDL_AudioStream) plus, over the first frames, the jump
// sound, added with saturation; and the output must hold the whole sound and at least half a
// second of the theme after it. The sound and music are loaded here afresh and mixed without the
// example's mixer. The check can fail: a missing or late sound, a theme not streamed (silence,
// or a block skipped or repeated) or played at the wrong rate would each differ.
//
//     AudioCheck OUTPUT.raw [ASSETS]     (ASSETS: the level's folder, sample-assets by default)

guard (2...3).contains(CommandLine.arguments.count) else { fatalError("usage: AudioCheck OUTPUT.raw [ASSETS]") }
let outputPath = CommandLine.arguments[1]
let assets =
    CommandLine.arguments.count == 3
    ? CommandLine.arguments[2]
    : URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-assets").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("AudioCheck: \(message)\n".utf8))
    exit(1)
}

var jumpRequest = AssetRequest(path: "\(assets)/audio/jump.wav", name: "jump")
jumpRequest.options[AudioLoaderSettings.self] = AudioLoaderSettings(kind: .sound)
var themeRequest = AssetRequest(path: "\(assets)/audio/theme.wav", name: "theme")
themeRequest.options[AudioLoaderSettings.self] = AudioLoaderSettings(kind: .music)
let coordinator = try PreloadCoordinator(plugins: [AudioLoader()])
_ = try await coordinator.preload([jumpRequest, themeRequest])
guard let jump = coordinator.assets.asset(named: "jump", as: Sound.self), let theme = coordinator.assets.asset(named: "theme", as: Music.self)
else { fail("jump.wav and theme.wav did not load as a sound and music from \(assets)/audio") }
guard jump.format.sampleFormat == .int16 else { fail("the jump sound is \(jump.format), not 16-bit") }
let device = jump.format
let channels = device.channels

// What the driver got, without the silence SDL writes while the device is still paused.
guard let written = FileManager.default.contents(atPath: outputPath) else {
    fail("no file \(outputPath): did LoadingScreen run with SDL_AUDIODRIVER=disk and SDL_DISKAUDIOFILE=\(outputPath)?")
}
guard written.count % device.bytesPerFrame == 0 else { fail("\(written.count) bytes is not a whole number of \(device) frames") }
var output = written.withUnsafeBytes { bytes in (0..<bytes.count / 2).map { bytes.load(fromByteOffset: $0 * 2, as: Int16.self) } }
func leadingSilentFrames(_ samples: [Int16]) -> Int { (samples.firstIndex { $0 != 0 } ?? samples.count) / channels }
let silent = leadingSilentFrames(output)
output.removeFirst(silent * channels)
let frames = output.count / channels
let themeAfterSound = device.sampleRate / 2
guard frames >= jump.frameCount + themeAfterSound else {
    fail(
        "\(written.count) bytes written, \(frames) frames after \(silent) silent ones: fewer than the sound's \(jump.frameCount)"
            + " and \(themeAfterSound) of the theme after it (play more frames)")
}

// The theme from its start, looping, converted to the device's format in one go.
let stream = try theme.makeStream()
stream.isLooping = true
let wanted = frames + 4096
let sourceFrames = wanted * stream.format.sampleRate / device.sampleRate + 4096
let source = try stream.read(frames: sourceFrames)
guard
    let converter = SDL_NewAudioStream(
        SDL_AudioFormat(AUDIO_S16SYS), UInt8(stream.format.channels), Int32(stream.format.sampleRate), SDL_AudioFormat(AUDIO_S16SYS),
        UInt8(channels), Int32(device.sampleRate))
else { fail("SDL_NewAudioStream: \(String(cString: SDL_GetError()))") }
guard source.withUnsafeBytes({ SDL_AudioStreamPut(converter, $0.baseAddress, Int32($0.count)) }) == 0 else {
    fail("SDL_AudioStreamPut: \(String(cString: SDL_GetError()))")
}
var music = [Int16](repeating: 0, count: wanted * channels)
let got = music.withUnsafeMutableBytes { SDL_AudioStreamGet(converter, $0.baseAddress, Int32($0.count)) }
SDL_FreeAudioStream(converter)
guard Int(got) == music.count * 2 else { fail("the theme converted to \(got) bytes, not \(music.count * 2)") }

// The mix: the theme, plus the sound over its first frames.
let sound = jump.samples.withUnsafeBytes { bytes in (0..<jump.frameCount * channels).map { bytes.load(fromByteOffset: $0 * 2, as: Int16.self) } }
var expected = music
for index in sound.indices { expected[index] = Int16(clamping: Int32(expected[index]) + Int32(sound[index])) }
expected.removeFirst(leadingSilentFrames(expected) * channels)

func firstDifference(_ samples: [Int16], from reference: [Int16]) -> Int? {
    zip(samples, reference).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / channels }
}
// The check must be able to fail: the same output without the sound, or a block late, must differ.
guard firstDifference(Array(music.prefix(sound.count)), from: Array(expected.prefix(sound.count))) != nil,
    firstDifference(
        Array(expected.dropFirst(1024 * channels).prefix(themeAfterSound * channels)), from: Array(expected.prefix(themeAfterSound * channels)))
        != nil
else { fail("the theme alone, or the mix a block late, would pass: the check proves nothing") }
if let frame = firstDifference(output, from: expected) {
    let shown = (max(frame - 2, 0)..<min(frame + 3, frames)).map { "\(output[$0 * channels])/\(expected[$0 * channels])" }
    fail(
        "\(written.count) bytes written, \(silent) silent frames, then frame \(frame) of \(frames) differs from the jump sound over the"
            + " theme (written/expected from frame \(max(frame - 2, 0)): \(shown.joined(separator: " ")))")
}
print(
    "\(written.count) bytes written (\(device)): \(silent) silent frames before the device started, then \(frames) frames equal"
        + " the jump sound (\(jump.frameCount) frames) mixed over the theme (\(stream.format), streamed) and \(frames - jump.frameCount)"
        + " of the theme alone")
