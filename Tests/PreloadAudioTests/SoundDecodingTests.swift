import Foundation
import Preload
import PreloadAudio
import PreloadPack
import PreloadTestSupport
import Testing

/// Sounds decode to exactly libsndfile's samples (the lossless ones to the file's own samples),
/// in both sample formats, through a real coordinator.
@Suite struct SoundDecodingTests {
    let coordinator: PreloadCoordinator

    init() throws {
        coordinator = try PreloadCoordinator(plugins: [AudioLoader()], configuration: .init(maxConcurrentLoads: 2))
    }

    /// Loads each fixture as a sound in `format` and compares it with libsndfile's decode.
    private func expectLibsndfileSamples(_ names: [String], _ format: AudioSampleFormat) async throws {
        let requests = names.map { AssetRequest(path: AudioFixtures.path($0), name: $0, options: AudioFixtures.options(.sound, format)) }
        let report = try await coordinator.preload(requests)
        let failures = report.errors.map(\.description)
        #expect(failures.isEmpty)
        for name in names {
            let expected = try #require(AudioFixtures.expectations[name])
            let sound = try #require(coordinator.assets.asset(named: name, as: Sound.self), "\(name)")
            #expect(sound.encoding.rawValue == expected.encoding, "\(name)")
            #expect(sound.frameCount == expected.frames && sound.format.sampleRate == expected.sampleRate, "\(name)")
            #expect(sound.format.channels == expected.channels && sound.format.sampleFormat == format, "\(name)")
            #expect(sound.samples.count == expected.frames * expected.channels * format.bytesPerSample, "\(name)")
            let digest = AudioFixtures.sha256(sound.samples)
            #expect(digest == expected.digest(format), "\(name) as \(format)")
        }
    }

    @Test(arguments: AudioSampleFormat.allCases)
    func everyWAVGivesLibsndfilesSamples(_ format: AudioSampleFormat) async throws {
        try await expectLibsndfileSamples(AudioFixtures.wav, format)
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries), arguments: AudioSampleFormat.allCases)
    func everyCompressedFileGivesLibsndfilesSamples(_ format: AudioSampleFormat) async throws {
        try await expectLibsndfileSamples(AudioFixtures.compressed.filter { $0 != "theme.ogg" }, format)
    }

    @Test func theSamplesLiveInPooledMemoryAndCountInTheReport() async throws {
        let name = "tone-s16.wav"
        let report = try await coordinator.preload([AssetRequest(path: AudioFixtures.path(name), name: name)])
        let sound = try #require(coordinator.assets.asset(named: name, as: Sound.self))
        #expect(report.decodedBytes == sound.samples.count && sound.byteCount == 4410 * 4)
        #expect(abs(sound.duration - 0.1) < 1e-9)
    }

    @Test func aFileOfTenSecondsOrLessIsASoundAndALongerOneMusic() async throws {
        let short = "tone-s16.wav"
        var requests = [AssetRequest(path: AudioFixtures.path(short), name: short)]
        if AudioFixtures.hasCodecLibraries { requests.append(AssetRequest(path: AudioFixtures.path("theme.ogg"), name: "theme.ogg")) }
        let report = try await coordinator.preload(requests)
        #expect(report.everythingLoaded)
        #expect(coordinator.assets.asset(named: short, as: Sound.self) != nil)
        if AudioFixtures.hasCodecLibraries {
            let theme = try #require(coordinator.assets.asset(named: "theme.ogg", as: Music.self))
            #expect(theme.byteCount == (try AudioFixtures.bytes("theme.ogg")).count && theme.frameCount == 264_600)
            #expect(theme.kind == .music && abs(theme.duration - 12) < 1e-9)
        }
    }

    @Test func audioInsideAZipLoadsAsItsEntries() async throws {
        let directory = try TemporaryDirectory("audio-in-zip")
        let zip = try directory.write(
            "sfx.zip",
            ZipFixture.stored([("jump.wav", try AudioFixtures.bytes("blip-mono.wav")), ("theme.wav", PhaserProject.wav(frames: 8000 * 11))]))
        let coordinator = try PreloadCoordinator(plugins: [AudioLoader(), PackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: zip)])
        #expect(report.everythingLoaded, "\(report.errors)")
        let jump = try #require(coordinator.assets.asset(atPath: zip + "#jump.wav") as? Sound)
        let file = try AudioFixtures.bytes("blip-mono.wav")
        #expect(jump.frameCount == 11025 && jump.samples.array == Array(file.dropFirst(56)))  // after RIFF, fmt, LIST and data headers
        let theme = try #require(coordinator.assets.asset(atPath: zip + "#theme.wav") as? Music)
        let decoded = try theme.decodeAll()
        #expect(theme.frameCount == 88000 && decoded.count == 88000 * 2)
    }

    @Test func aFileClaimedByContentWhateverItsName() async throws {
        let directory = try TemporaryDirectory("audio-claims")
        let disguised = try directory.write("jump.bin", try AudioFixtures.bytes("blip-mono.wav"))
        let report = try await coordinator.preload([AssetRequest(path: disguised)])
        #expect(report.results.first?.plugin == "audio")
        #expect((coordinator.assets.asset(atPath: disguised) as? Sound)?.frameCount == 11025)
    }
}
