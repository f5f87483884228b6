import Foundation
import Preload
import PreloadAudio
import PreloadRemote

/// The audio files `make_fixtures.py` wrote, and what libsndfile decodes from each
/// (`Fixtures/expected.json`: frames, rate, channels, SHA-256 of the 16-bit and float samples).
enum AudioFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// One entry of `expected.json`.
    struct Expectation: Decodable, Sendable {
        let encoding: String
        let frames: Int
        let sampleRate: Int
        let channels: Int
        let int16: String
        let float32: String

        func digest(_ format: AudioSampleFormat) -> String { format == .int16 ? int16 : float32 }
    }

    static let expectations: [String: Expectation] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode([String: Expectation].self, from: data)
    }()

    /// The fixtures the plugin reads itself (PCM and float WAV), and those that need a codec
    /// library (the compressed encodings, and the ADPCM WAVs, which libsndfile decodes).
    static let wav = expectations.keys.filter { $0.hasSuffix(".wav") && !isADPCM($0) }.sorted()
    static let compressed = expectations.keys.filter { !$0.hasSuffix(".wav") || isADPCM($0) }.sorted()
    static let adpcm = expectations.keys.filter(isADPCM).sorted()

    static func isADPCM(_ name: String) -> Bool { name.hasSuffix("-adpcm.wav") }

    /// Whether libsndfile is missing (a fresh machine): the ADPCM WAVs then fail naming it.
    static let lacksSndfile = AudioLoader.missingLibraries.contains { $0.library == "libsndfile" }

    /// Whether libvorbisfile, libmpg123 and libsndfile are installed: the compressed fixtures'
    /// tests run only then, and the tests of their absence only without any (CI runs the suite
    /// both ways: first as a fresh machine, then after `.ci/system-packages install audio`).
    static let hasCodecLibraries = AudioLoader.missingLibraries.isEmpty
    static let hasNoCodecLibrary = AudioLoader.missingLibraries.count == 3

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func sha256<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        (try? SHA256.hash(data: bytes))?.hexString ?? "(libcrypto missing)"
    }

    /// Options loading as `kind` with `format` samples.
    static func options(_ kind: AudioLoaderSettings.Kind, _ format: AudioSampleFormat = .int16) -> AssetOptions {
        AssetOptions().with(AudioLoaderSettings.self, AudioLoaderSettings(kind: kind, sampleFormat: format))
    }
}
