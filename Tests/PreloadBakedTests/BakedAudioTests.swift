import Foundation
import Preload
import PreloadAudio
import PreloadAuthoring
import PreloadBaked
import PreloadTestSupport
import Testing

/// Sounds bake as their PCM and load as views of the mapped pack, with no decode; music bakes
/// as its encoded file and streams from the pack; `bake check` sees their sources change.
@Suite struct BakedAudioTests {
    @Test func soundsBakeAsTheirPCMAndMusicAsItsEncodedFile() async throws {
        let directory = try TemporaryDirectory("baked-audio")
        _ = try directory.write("level/jump.wav", PhaserProject.wav(frames: 4000))
        _ = try directory.write("level/theme.wav", PhaserProject.wav(frames: 8000 * 12))  // 12 s: music
        _ = try directory.write("level/sfx.wav", PhaserProject.wav(frames: 16000))
        _ = try directory.write("level/sfx.json", text: #"{"spritemap": {"a": {"start": 0.5, "end": 1}, "b": {"start": 1, "end": 2, "loop": true}}}"#)
        let float = AssetOptions().with(AudioLoaderSettings.self, AudioLoaderSettings(kind: .sound, sampleFormat: .float32))
        let sprite = AssetOptions().with(AudioSpriteMap.self, AudioSpriteMap(path: directory.file("level/sfx.json")))
        let sources = [
            AssetRequest(path: directory.file("level/jump.wav"), name: "jump"),
            AssetRequest(path: directory.file("level/jump.wav"), name: "jump-float", options: float),
            AssetRequest(path: directory.file("level/theme.wav"), name: "theme"),
            AssetRequest(path: directory.file("level/sfx.wav"), name: "sfx", options: sprite),
        ]
        let loose = try PreloadCoordinator(plugins: [AudioLoader()])
        let looseReport = try await loose.preload(sources)
        #expect(looseReport.everythingLoaded, "\(looseReport.errors)")
        let pack = directory.file("level.bake")
        let summary = try BakeWriter.write(looseReport, to: pack)
        #expect(summary.count(ofKind: "audio") == 4 && summary.entries == 4)

        let baked = try PreloadCoordinator(plugins: [AudioLoader(), BakedPackLoader()])
        let report = try await baked.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        for name in ["jump", "jump-float", "sfx"] {
            let original = try #require(loose.assets.asset(named: name, as: Sound.self))
            let sound = try #require(baked.assets.asset(named: name, as: Sound.self), "\(name)")
            #expect(sound.samples == original.samples && sound.format == original.format && sound.frameCount == original.frameCount, "\(name)")
            #expect(sound.ranges == original.ranges && sound.encoding == .wav, "\(name)")
            #expect(sound.samples.isMapped, "\(name): a view into the pack, not a decode")
        }
        #expect(baked.assets.asset(named: "sfx", as: Sound.self)?.ranges["b"] == SoundRange(frames: 8000..<16000, loops: true))
        let theme = try #require(baked.assets.asset(named: "theme", as: Music.self))
        let looseTheme = try #require(loose.assets.asset(named: "theme", as: Music.self))
        #expect(theme.encoded == looseTheme.encoded && theme.encoded.isMapped && theme.frameCount == 96000)
        #expect(try theme.decodeAll() == (try looseTheme.decodeAll()))

        // bake check: a changed source makes its entry stale.
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        #expect(BakeCheck(index: index).isCurrent)
        _ = try directory.write("level/theme.wav", PhaserProject.wav(frames: 8000 * 13))
        #expect(BakeCheck(index: index).problems == ["stale   theme (\(directory.file("level/theme.wav")) changed)"])
    }

    @Test func aDamagedAudioHeaderFailsByName() async throws {
        let directory = try TemporaryDirectory("baked-audio-damage")
        _ = try directory.write("jump.wav", PhaserProject.wav(frames: 100))
        let loose = try PreloadCoordinator(plugins: [AudioLoader()])
        let report = try await loose.preload([AssetRequest(path: directory.file("jump.wav"), name: "jump")])
        let pack = directory.file("level.bake")
        try BakeWriter.write(report, to: pack)
        // The header's channel count set to 0, and the entry's checksum trusted (as `--trust` does).
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        let header = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("PAUD".utf8) })
        bytes[header + 12] = 0
        _ = try directory.write("damaged.bake", bytes)
        let baked = try PreloadCoordinator(plugins: [AudioLoader(), BakedPackLoader(verification: .indexOnly)])
        let damaged = try await baked.preload([AssetRequest(path: directory.file("damaged.bake"))])
        let error = try #require(damaged.errors.first)
        #expect(error.description.contains("entry 'jump': its audio header gives sizes that do not fit the entry"), "\(error)")
    }
}
