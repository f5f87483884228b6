import Foundation
import Preload
import PreloadAudio
import PreloadTestSupport
import Testing

/// Damaged, truncated and hostile audio fails by name; irregular structure that players accept
/// loads with a warning (and fails a strict batch); a missing libsndfile fails only the files
/// that need it.
@Suite struct DamagedAudioTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory("damaged-audio")
        coordinator = try PreloadCoordinator(plugins: [AudioLoader()])
    }

    /// A WAV of `frames` 16-bit mono frames, with `dataSize` written as the data chunk's size.
    static func wav(frames: Int, dataSize: UInt32? = nil, tag: UInt16 = 1, trailing: [UInt8] = []) -> [UInt8] {
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
        let samples = (0..<frames).flatMap { le16(UInt16(bitPattern: Int16(truncatingIfNeeded: $0 * 37))) }
        let fmt = le16(tag) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        let body =
            Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16) + fmt + Array("data".utf8)
            + le32(dataSize ?? UInt32(samples.count)) + samples
        return Array("RIFF".utf8) + le32(UInt32(body.count)) + body + trailing
    }

    private func load(_ name: String, _ bytes: [UInt8], strict: Bool = false) async throws -> AssetResult {
        let path = try directory.write(name, bytes)
        let report = try await coordinator.preload([AssetRequest(path: path)], options: PreloadOptions(isStrict: strict))
        return try #require(report.results.first)
    }

    @Test func brokenWAVsFailNamingTheFileAndTheCause() async throws {
        let good = Self.wav(frames: 100)
        let cases: [(String, [UInt8], AssetError.Category, String)] = [
            ("empty.wav", [], .truncated, "empty file, not audio"),
            ("short.wav", Array(good.prefix(10)), .truncated, "truncated audio: 10 bytes, fewer than a RIFF header's 12"),
            (
                "cut.wav", Array(good.prefix(good.count - 51)), .truncated,
                "truncated audio: the data chunk declares 200 bytes of samples; the file has 149"
            ),
            (
                "nodata.wav", Array(good.prefix(36)), .truncated,
                "truncated audio: the file ends at byte 36, before its data chunk (the RIFF chunk declares 244 bytes)"
            ),
            (
                "cut-header.wav", Array(good.prefix(16)), .truncated,
                "truncated audio: the file ends at byte 16, before its fmt chunk (the RIFF chunk declares 244 bytes)"
            ),
            ("rifx.wav", Array("RIFX".utf8) + Array(good.dropFirst(4)), .unsupported, "unsupported audio: a big-endian RIFX WAV file"),
        ]
        for (name, bytes, category, reason) in cases {
            let result = try await load(name, bytes)
            let error = try #require(result.outcome.error, "\(name)")
            #expect(error.category == category, "\(name)")
            #expect(error.description == "\((directory.path + "/" + name)): \(reason)", "\(name)")
        }
    }

    @Test func aWAVOfACodecNeitherThePluginNorLibsndfileDecodesIsUnsupported() async throws {
        // Format 0x0161 (Windows Media Audio): unsupported with or without libsndfile, never corrupt.
        let name = "wma.wav"
        let result = try await load(name, Self.wav(frames: 10, tag: 0x0161))
        let error = try #require(result.outcome.error)
        #expect(error.category == .unsupported)
        #expect(
            error.description.hasPrefix(
                "\(directory.path)/\(name): unsupported audio: an unknown codec (WAV format 0x0161): a codec neither this plugin nor libsndfile "
                    + "decodes (libsndfile: "), "\(error)")
    }

    @Test(.enabled(if: AudioFixtures.lacksSndfile))
    func withoutLibsndfileAnADPCMWAVFailsNamingItsCodecAndThePackage() async throws {
        let report = try await coordinator.preload(AudioFixtures.adpcm.map { AssetRequest(path: AudioFixtures.path($0)) })
        #expect(report.errors.count == 2 && report.errors.allSatisfy { $0.category == .libraryMissing })
        let messages = report.errors.map(\.description).sorted()
        let needs =
            "decodes through libsndfile only; this file needs libsndfile (libsndfile.so.1), which this machine lacks: install the package libsndfile1"
        #expect(
            messages.first?.hasPrefix(
                "\(AudioFixtures.path("tone-ima-adpcm.wav")): unsupported audio on this machine: IMA ADPCM (WAV format 0x0011) \(needs)")
                == true, "\(messages)")
        #expect(
            messages.last?.hasPrefix(
                "\(AudioFixtures.path("tone-ms-adpcm.wav")): unsupported audio on this machine: Microsoft ADPCM (WAV format 0x0002) \(needs)") == true
        )
    }

    @Test func irregularWAVsLoadWithAWarningAndFailAStrictBatch() async throws {
        let cases: [(String, [UInt8], AssetWarning.Code, Int)] = [
            ("unset.wav", Self.wav(frames: 50, dataSize: 0xFFFF_FFFF), .wavUnsetDataSize, 50),
            ("partial.wav", Self.wav(frames: 50, dataSize: 99), .wavPartialFrame, 49),
            ("trailing.wav", Self.wav(frames: 50, trailing: Array("junk".utf8)), .wavTrailingData, 50),
        ]
        for (name, bytes, code, frames) in cases {
            let result = try await load(name, bytes)
            #expect(result.warnings.map(\.code) == [code], "\(name)")
            #expect((result.outcome.asset as? Sound)?.frameCount == frames, "\(name)")
            let strict = try await load("strict-" + name, bytes, strict: true)
            #expect(strict.outcome.error?.category == .strict, "\(name)")
        }
    }

    @Test func aFileLongerThanTheLimitFailsBeforeDecoding() async throws {
        var settings = AudioLoaderSettings()
        settings.longestDuration = .milliseconds(50)
        let path = AudioFixtures.path("tone-s16.wav")
        let report = try await coordinator.preload([
            AssetRequest(path: path, options: AssetOptions().with(AudioLoaderSettings.self, settings))
        ])
        let error = try #require(report.errors.first)
        #expect(error.category == .limitExceeded)
        #expect(
            error.description == "\(path): audio too long: it plays for 0.1 s, more than the limit of 0.1 s (AudioLoaderSettings.longestDuration)")
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func damagedCompressedFilesFailByName() async throws {
        let flac = try AudioFixtures.bytes("tone.flac")
        let cases: [(String, [UInt8], AssetError.Category)] = [
            ("noise.ogg", (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }, .corrupt),
            ("cut.flac", Array(flac.prefix(flac.count / 2)), .truncated),
        ]
        for (name, bytes, category) in cases {
            let result = try await load(name, bytes)
            let error = try #require(result.outcome.error, "\(name)")
            #expect(error.category == category, "\(name): \(error)")
            #expect(error.description.hasPrefix((directory.path + "/" + name) + ": "), "\(name)")
        }
    }

    @Test(.enabled(if: AudioFixtures.hasNoCodecLibrary))
    func withoutTheCodecLibrariesOnlyTheCompressedFilesFailNamingThePackage() async throws {
        let names = ["tone.ogg", "tone-s16.wav", "tone.flac"]
        let report = try await coordinator.preload(names.map { AssetRequest(path: AudioFixtures.path($0), name: $0) })
        #expect(report.loaded.map(\.request.path) == [AudioFixtures.path("tone-s16.wav")])
        #expect(report.errors.count == 2 && report.errors.allSatisfy { $0.category == .libraryMissing })
        let messages = Dictionary(uniqueKeysWithValues: report.failed.map { ($0.request.path, $0.outcome.error?.description ?? "") })
        #expect(
            messages[AudioFixtures.path("tone.ogg")]?.contains(
                "needs libvorbisfile (libvorbisfile.so.3), which this machine lacks: install the package libvorbisfile3") == true)
        #expect(
            messages[AudioFixtures.path("tone.flac")]?.contains(
                "needs libsndfile (libsndfile.so.1), which this machine lacks: install the package libsndfile1") == true)
    }
}
