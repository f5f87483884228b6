import Foundation
import Preload

/// The map of a Phaser audio sprite: a JSON file naming parts of one audio file. Set on a
/// request, the file loads as a ``Sound`` whose ``Sound/ranges`` are the map's markers.
///
/// The JSON is Phaser's (and howler's `audiosprite` tool's): `{"spritemap": {"jump": {"start":
/// 0, "end": 0.4, "loop": false}, ...}}`, times in seconds; `resources` lists the audio files,
/// which the request names instead.
///
/// ```swift
/// import Preload
/// import PreloadAudio
///
/// let effects = AssetRequest(
///     path: "audio/effects.ogg", name: "effects",
///     options: AssetOptions().with(AudioSpriteMap.self, AudioSpriteMap(path: "audio/effects.json")))
/// print(effects)
/// ```
public struct AudioSpriteMap: AssetOptionKey, Hashable, Sendable {
    /// Not an audio sprite.
    public static let defaultValue = AudioSpriteMap(path: nil)

    /// The JSON file with the markers (a path as requests give them, a pack's entry included);
    /// `nil`: the file is not an audio sprite.
    public var path: String?

    /// The map in the JSON file at `path`.
    public init(path: String?) { self.path = path }

    /// The markers of the JSON `bytes` as frame ranges at `sampleRate`, clamped to `frameCount`.
    static func ranges(_ bytes: AssetBytes, sampleRate: Int, frameCount: Int) throws(AudioDecodeError) -> [String: SoundRange] {
        let object = try? JSONSerialization.jsonObject(with: Data(bytes.array))
        guard let map = (object as? [String: Any])?["spritemap"] as? [String: Any] else {
            throw .corrupt("the audio sprite map has no 'spritemap' object")
        }
        var ranges: [String: SoundRange] = [:]
        for (name, value) in map {
            guard let marker = value as? [String: Any], let start = (marker["start"] as? NSNumber)?.doubleValue,
                let end = (marker["end"] as? NSNumber)?.doubleValue, start.isFinite, end.isFinite, start >= 0, end >= start
            else {
                throw .corrupt("the audio sprite marker '\(name)' needs numbers 'start' and 'end', start ≤ end, in seconds")
            }
            let first = min(Int((start * Double(sampleRate)).rounded()), frameCount)
            let last = min(Int((end * Double(sampleRate)).rounded()), frameCount)
            ranges[name] = SoundRange(frames: first..<max(first, last), loops: (marker["loop"] as? Bool) ?? false)
        }
        return ranges
    }
}
