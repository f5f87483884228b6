import Preload
import PreloadAudio  // public API only: no `@testable`, what a third party's codec sees
import PreloadTestSupport
import Testing

/// A codec a third party might add: `RAWPCM16`, the sample rate (UInt32) and channels (UInt16)
/// little-endian, two bytes of padding, then interleaved little-endian 16-bit samples.
private struct RawPCMDecoder: AudioDecoder {
    static let magic = Array("RAWPCM16".utf8)
    var encoding: AudioEncoding { AudioEncoding(rawValue: "rawpcm") }
    var fileExtensions: Set<String> { ["rawpcm"] }

    func matches(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.starts(with: Self.magic) }

    func open(_ bytes: UnsafeRawBufferPointer, sampleFormat: AudioSampleFormat) throws -> any AudioFrames {
        guard bytes.count >= 16 else { throw AudioDecodeError.truncated("a raw PCM header of \(bytes.count) bytes") }
        let rate = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        let channels = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt16.self).littleEndian)
        guard rate > 0, channels > 0 else { throw AudioDecodeError.corrupt("a raw PCM header of \(rate) Hz and \(channels) channels") }
        return RawPCMFrames(samples: UnsafeRawBufferPointer(rebasing: bytes[16...]), sampleRate: rate, channels: channels, encoding: encoding)
    }

    static func file(rate: Int, channels: Int, samples: [Int16]) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: UInt32(rate).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt16(channels).littleEndian) { bytes += $0 }
        bytes += [0, 0]
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { bytes += $0 } }
        return bytes
    }
}

private final class RawPCMFrames: AudioFrames {
    let samples: UnsafeRawBufferPointer
    let sampleRate: Int
    let channels: Int
    let encoding: AudioEncoding
    private var position = 0

    init(samples: UnsafeRawBufferPointer, sampleRate: Int, channels: Int, encoding: AudioEncoding) {
        (self.samples, self.sampleRate, self.channels, self.encoding) = (samples, sampleRate, channels, encoding)
    }

    var frameCount: Int { samples.count / (2 * channels) }

    func read(_ frames: Int, as format: AudioSampleFormat, into destination: UnsafeMutableRawPointer) throws(AudioDecodeError) -> Int {
        let count = min(frames, frameCount - position)
        guard count > 0 else { return 0 }
        for index in 0..<(count * channels) {
            let sample = Int16(littleEndian: samples.loadUnaligned(fromByteOffset: (position * channels + index) * 2, as: Int16.self))
            switch format {
            case .int16: destination.storeBytes(of: sample, toByteOffset: index * 2, as: Int16.self)
            case .float32: destination.storeBytes(of: Float(sample) / 32768, toByteOffset: index * 4, as: Float.self)
            }
        }
        position += count
        return count
    }

    func seek(toFrame frame: Int) -> Bool {
        guard (0...frameCount).contains(frame) else { return false }
        position = frame
        return true
    }
}

/// A third party's audio codec loads through the coordinator as a sound and as music, claimed
/// by extension and by content, the way a third party's image codec does.
@Suite struct ThirdPartyAudioDecoderTests {
    let samples: [Int16] = (0..<2000).map { Int16(truncatingIfNeeded: $0 * 37) }

    private func load(_ kind: AudioLoaderSettings.Kind, named name: String) async throws -> (PreloadCoordinator, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, RawPCMDecoder.file(rate: 8000, channels: 2, samples: samples))
        let coordinator = try PreloadCoordinator(plugins: [AudioLoader(decoders: [RawPCMDecoder()])])
        let options = AssetOptions().with(AudioLoaderSettings.self, AudioLoaderSettings(kind: kind))
        let report = try await coordinator.start([AssetRequest(path: path, name: "clip", options: options)]).finished()
        #expect(report.everythingLoaded, "\(report.errors)")
        return (coordinator, path)
    }

    @Test func itLoadsAsASound() async throws {
        let (coordinator, _) = try await load(.sound, named: "clip.rawpcm")
        let sound = try #require(coordinator.assets.asset(named: "clip", as: Sound.self))
        #expect(sound.encoding == AudioEncoding(rawValue: "rawpcm") && sound.frameCount == 1000)
        #expect(sound.format == AudioFormat(sampleRate: 8000, channels: 2, sampleFormat: .int16))
        let decoded = sound.samples.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(decoded == samples)
    }

    @Test func itLoadsAsMusicWhoseStreamsReopenItWithTheDecoder() async throws {
        let (coordinator, _) = try await load(.music, named: "clip.rawpcm")
        let music = try #require(coordinator.assets.asset(named: "clip", as: Music.self))
        #expect(music.encoding == AudioEncoding(rawValue: "rawpcm") && music.frameCount == 1000)
        let stream = try music.makeStream(sampleFormat: .float32)
        let first = try stream.read(frames: 1).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(first == [Float(samples[0]) / 32768, Float(samples[1]) / 32768])
        #expect(try music.decodeAll(sampleFormat: .int16).count == samples.count * 2)
    }

    @Test func itIsClaimedByContentUnderAnotherName() async throws {
        let (coordinator, _) = try await load(.sound, named: "clip.bin")
        #expect(coordinator.assets.asset(named: "clip", as: Sound.self)?.frameCount == 1000)
    }
}
