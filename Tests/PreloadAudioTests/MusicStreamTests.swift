import Foundation
import Preload
import PreloadAudio
import Testing

/// Music stays encoded and its streams give the same samples as a sound decode: read to the
/// end, after a seek, and around a loop.
@Suite struct MusicStreamTests {
    let coordinator: PreloadCoordinator

    init() throws {
        coordinator = try PreloadCoordinator(plugins: [AudioLoader()])
    }

    private func music(_ name: String, _ format: AudioSampleFormat = .int16) async throws -> Music {
        let request = AssetRequest(path: AudioFixtures.path(name), name: name, options: AudioFixtures.options(.music, format))
        let report = try await coordinator.preload([request])
        let errors = report.errors.map(\.description)
        #expect(errors.isEmpty)
        return try #require(coordinator.assets.asset(named: name, as: Music.self))
    }

    /// Reads `stream` to its end in blocks of `block` frames.
    private func readToEnd(_ stream: MusicStream, block: Int = 1000) throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let bytes = try stream.read(frames: block)
            all += bytes
            if bytes.count < block * stream.format.bytesPerFrame { return all }
        }
    }

    /// Every fixture loaded as music streams exactly the samples libsndfile decodes.
    private func expectStreamsMatch(_ names: [String]) async throws {
        for name in names {
            for format in AudioSampleFormat.allCases {
                let music = try await music(name, format)
                #expect(music.byteCount == (try AudioFixtures.bytes(name)).count, "\(name)")
                let expected = try #require(AudioFixtures.expectations[name])
                let stream = try music.makeStream()
                #expect(stream.frameCount == expected.frames && stream.format == music.format, "\(name)")
                let samples = try readToEnd(stream)
                #expect(samples.count == expected.frames * stream.format.bytesPerFrame, "\(name)")
                #expect(AudioFixtures.sha256(samples) == expected.digest(format), "\(name) as \(format)")
                #expect(try stream.read(frames: 10).isEmpty && stream.position == expected.frames, "\(name)")
            }
        }
    }

    @Test func wavStreamsGiveTheSoundsSamples() async throws {
        try await expectStreamsMatch(AudioFixtures.wav)
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func compressedStreamsGiveLibsndfilesSamples() async throws {
        try await expectStreamsMatch(AudioFixtures.compressed)
    }

    /// After a seek, a stream reads the same frames a full read gives at that place.
    private func expectSeeksExact(_ name: String, at frames: [Int]) async throws {
        let music = try await music(name)
        let whole = try readToEnd(try music.makeStream())
        let stream = try music.makeStream()
        let bytesPerFrame = stream.format.bytesPerFrame
        for frame in frames {
            try stream.seek(toFrame: frame)
            #expect(stream.position == frame)
            let read = try stream.read(frames: 500)
            let end = min(whole.count, (frame + 500) * bytesPerFrame)
            #expect(read == Array(whole[frame * bytesPerFrame..<end]), "\(name) at frame \(frame)")
        }
        #expect(throws: AudioDecodeError.self) { try stream.seek(toFrame: music.frameCount + 1) }
    }

    @Test func aWAVStreamSeeksExactly() async throws {
        try await expectSeeksExact("tone-s24.wav", at: [0, 4000, 17, 4410, 2000])
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func compressedStreamsSeekExactly() async throws {
        try await expectSeeksExact("theme.ogg", at: [200_000, 0, 100_000, 264_000])
        try await expectSeeksExact("tone.flac", at: [4000, 17, 0])
        try await expectSeeksExact("tone-ms-adpcm.wav", at: [4000, 17, 2036, 0])
        try await expectSeeksExact("tone-ima-adpcm.wav", at: [4000, 17, 505, 0])
    }

    @Test func aLoopingStreamGoesOnFromItsLoopStart() async throws {
        let music = try await music("blip-mono.wav")
        let whole = try readToEnd(try music.makeStream())
        let stream = try music.makeStream()
        stream.isLooping = true
        stream.loopStart = 1000
        try stream.seek(toFrame: 10_000)
        let read = try stream.read(frames: 3000)  // 1,025 frames to the end, then 1,975 from frame 1,000
        #expect(read.count == 3000 * 2)
        #expect(Array(read[0..<1025 * 2]) == Array(whole[10_000 * 2..<11_025 * 2]))
        #expect(Array(read.dropFirst(1025 * 2)) == Array(whole[1000 * 2..<2975 * 2]))
        #expect(stream.position == 2975)
        stream.isLooping = false
        #expect(try readToEnd(stream).count == (11_025 - 2975) * 2)
    }
}
