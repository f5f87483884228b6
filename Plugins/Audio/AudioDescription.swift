import Foundation
import Preload

/// What sounds and music say about themselves alike (``Sound``'s and ``Music``'s
/// `DescribedAsset` conformances): playing time, rate, channels, frames, sample type and encoding.
enum AudioDescription {
    /// `duration`, `sampleRate`, `channels`, `frameCount`, `sampleFormat` and `encoding`.
    static func fields(duration: Double, format: AudioFormat, frameCount: Int, encoding: AudioEncoding) -> DescriptionFields {
        [
            "duration": .double(duration), "sampleRate": .int(format.sampleRate), "channels": .int(format.channels),
            "frameCount": .int(frameCount), "sampleFormat": .string(format.sampleFormat.rawValue), "encoding": .string(encoding.rawValue),
        ]
    }

    /// `NOUN, 1.50 s, 44100 Hz, stereo, int16, wav`.
    static func summary(_ noun: String, duration: Double, format: AudioFormat, encoding: AudioEncoding) -> String {
        "\(noun), " + String(format: "%.2f s, ", duration) + format.description + ", \(encoding)"
    }
}
