import Foundation
import Preload
import PreloadAudio
import PreloadTestSupport
import Testing

/// A file cut short fails as truncated, naming the file, in every encoding, as a sound and as
/// music (at load, where the file's own structure tells: RIFF chunks, Ogg pages, MP3 frames,
/// FLAC metadata and last frame; otherwise when the stream reaches the cut).
@Suite struct TruncatedAudioTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory("truncated-audio")
        coordinator = try PreloadCoordinator(plugins: [AudioLoader()], configuration: .init(maxConcurrentLoads: 2))
    }

    /// The lengths a file of `count` bytes is cut to: from a header's worth to all but its last byte.
    static func cuts(_ count: Int) -> [Int] {
        Set([12, count / 50, count / 10, count * 3 / 10, count / 2, count * 77 / 100, count * 95 / 100, count - 1].map { max($0, 12) }).sorted()
    }

    /// Loads `bytes` as `kind` under `name`.
    private func load(_ name: String, _ bytes: [UInt8], as kind: AudioLoaderSettings.Kind) async throws -> (path: String, result: AssetResult) {
        let path = try directory.write(name, bytes)
        let report = try await coordinator.preload([AssetRequest(path: path, options: AudioFixtures.options(kind))])
        return (path, try #require(report.results.first))
    }

    /// Each fixture cut at each of ``cuts(_:)`` fails as truncated, as a sound and as music.
    private func expectEveryCutTruncated(_ names: [String]) async throws {
        for name in names {
            let bytes = try AudioFixtures.bytes(name)
            var requests: [AssetRequest] = []
            for cut in Self.cuts(bytes.count) {
                for kind in [AudioLoaderSettings.Kind.sound, .music] {
                    let path = try directory.write("\(kind)-\(cut)-\(name)", Array(bytes.prefix(cut)))
                    requests.append(AssetRequest(path: path, options: AudioFixtures.options(kind)))
                }
            }
            let report = try await coordinator.preload(requests)
            for result in report.results {
                let error = result.outcome.error
                let file = result.request.path
                #expect(error?.category == .truncated, "\(file) of \(bytes.count) bytes: \(error.map { "\($0)" } ?? "loaded")")
                #expect(error?.description.hasPrefix("\(file): truncated audio: ") == true, "\(error.map { "\($0)" } ?? "")")
            }
        }
    }

    @Test func wavFilesCutShortFailAsTruncated() async throws {
        try await expectEveryCutTruncated(AudioFixtures.wav)
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func compressedFilesCutShortFailAsTruncated() async throws {
        try await expectEveryCutTruncated(AudioFixtures.compressed)
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func anOggCutInsideAPageSaysWhere() async throws {
        let bytes = try AudioFixtures.bytes("theme.ogg")
        let (path, result) = try await load("cut-theme.ogg", Array(bytes.prefix(36000)), as: .music)
        #expect(
            result.outcome.error?.description
                == "\(path): truncated audio: the file ends 3093 bytes into the Ogg page at byte 32907, which declares 4211 bytes; "
                + "the whole pages end at granule position 174080")
    }

    /// The offsets of the Ogg pages of `bytes` (where "OggS" starts one: true of the fixtures).
    static func oggPages(_ bytes: [UInt8]) -> [Int] {
        (0..<bytes.count - 3).filter { bytes[$0] == 0x4F && bytes[$0 + 1] == 0x67 && bytes[$0 + 2] == 0x67 && bytes[$0 + 3] == 0x53 }
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func anOggCutAtAPageBoundaryLoadsItsPagesWithAWarningOrFailsAsTruncated() async throws {
        // Vorbis: libvorbisfile plays the whole pages; the unmarked end is a warning (strict fails it).
        let theme = try AudioFixtures.bytes("theme.ogg")
        let last = try #require(Self.oggPages(theme).last)
        let (_, result) = try await load("page-cut-theme.ogg", Array(theme.prefix(last)), as: .music)
        #expect(result.warnings.map(\.code) == [.oggUnmarkedEnd])
        #expect((result.outcome.asset as? Music).map { $0.frameCount < 264_600 } == true)
        // Opus: libsndfile refuses a stream without its end, which is then named as truncated.
        let opus = try AudioFixtures.bytes("tone.opus")
        let (path, opusResult) = try await load("page-cut-tone.opus", Array(opus.prefix(try #require(Self.oggPages(opus).last))), as: .sound)
        #expect(opusResult.outcome.error?.category == .truncated)
        #expect(opusResult.outcome.error?.description.hasPrefix("\(path): truncated audio: the last Ogg page (at byte ") == true)
    }

    /// The MPEG frames of an MP3 without an ID3 tag: (offset, length) of each.
    static func mp3Frames(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var position = 0
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let mpeg1 = bytes[position + 1] & 0x18 == 0x18
            let bitrate =
                (mpeg1
                ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
                : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160])[Int(bytes[position + 2] >> 4)]
            let rate = [44100, 48000, 32000][Int(bytes[position + 2] >> 2) & 3] / (mpeg1 ? 1 : 2)
            offsets.append(position)
            position += (mpeg1 ? 144 : 72) * bitrate * 1000 / rate + Int(bytes[position + 2] >> 1) & 1
        }
        return offsets
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func anMP3CutBetweenFramesFailsWhenItsXingHeaderCountsThem() async throws {
        let tagged = try AudioFixtures.bytes("tone.mp3")  // LAME's Info header: 5 frames after it
        let frames = Self.mp3Frames(tagged)
        #expect(frames.count == 6)
        let (path, result) = try await load("frame-cut-tone.mp3", Array(tagged.prefix(frames[5])), as: .sound)
        #expect(
            result.outcome.error?.description
                == "\(path): truncated audio: the file ends after 4 of the 5 MPEG frames its Xing/Info header counts")
        // Without such a header an MP3 cut between frames is a shorter MP3: nothing tells.
        let untagged = try AudioFixtures.bytes("untagged-vbr.mp3")
        let (_, shorter) = try await load("frame-cut-untagged.mp3", Array(untagged.prefix(Self.mp3Frames(untagged)[60])), as: .sound)
        let expected = try #require(AudioFixtures.expectations["untagged-vbr.mp3"])
        #expect((shorter.outcome.asset as? Sound).map { $0.frameCount < expected.frames } == true, "\(shorter.outcome)")
    }

    /// The Ogg checksum (CRC-32, polynomial 0x04C11DB7, not reflected) of a page.
    static func oggCRC(_ page: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in page {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    @Test(.enabled(if: AudioFixtures.hasCodecLibraries))
    func aStreamThatEndsBeforeItsDeclaredLengthFailsWhenItGetsThere() async throws {
        // theme.ogg whose last page claims 1000 more samples than its packets hold: every page is
        // whole and the file opens, but the decoder runs out 1000 frames early.
        var bytes = try AudioFixtures.bytes("theme.ogg")
        let last = try #require(Self.oggPages(bytes).last)
        let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[last + 6 + $1]) << (8 * UInt64($1)) } + 1000
        for index in 0..<8 { bytes[last + 6 + index] = UInt8(truncatingIfNeeded: granule >> (8 * UInt64(index))) }
        for index in 22..<26 { bytes[last + index] = 0 }
        let crc = Self.oggCRC(bytes[last...])
        for index in 0..<4 { bytes[last + 22 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        let (_, result) = try await load("long-granule.ogg", bytes, as: .music)
        let music = try #require(result.outcome.asset as? Music)
        #expect(music.frameCount == 265_600)
        let stream = try music.makeStream()
        var block = [UInt8](repeating: 0, count: 100_000 * stream.format.bytesPerFrame)
        #expect(try block.withUnsafeMutableBytes { try stream.read(into: $0) } == 100_000)
        #expect(try block.withUnsafeMutableBytes { try stream.read(into: $0) } == 100_000)
        do {
            _ = try block.withUnsafeMutableBytes { try stream.read(into: $0) }
            Issue.record("the stream read past its data without an error")
        } catch {
            #expect((error as? AudioDecodeError)?.category == .truncated)
            #expect("\(error)".hasSuffix("of the 265600 frames the file declares"), "\(error)")
        }
        let (_, sound) = try await load("long-granule-sound.ogg", bytes, as: .sound)
        #expect(sound.outcome.error?.category == .truncated)
        #expect(sound.outcome.error?.description.hasSuffix("of the 265600 frames the file declares") == true)
    }
}
