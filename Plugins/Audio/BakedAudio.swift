import Foundation
import Preload

/// How a baked pack holds a sound or music: a 64-byte header, then the payload (a sound's PCM as
/// loaded, music's encoded file), then a sound's named ranges as JSON. A sound loads as a view of
/// its PCM in the mapped pack (no decode); music as a view of its encoded bytes, streamed as a
/// loose file's would be. The layout is in docs/bake-format.md ("Audio entries").
public enum BakedAudio {
    /// The header's first four bytes.
    static let magic = Array("PAUD".utf8)
    /// The header's size: the payload starts 64 bytes into the entry (aligned as the entry is).
    public static let headerSize = 64

    /// What an audio entry holds.
    enum Form: UInt8 {
        case sound = 1
        case music = 2
    }

    /// The entry's bytes for `sound`: header, PCM, ranges.
    public static func encode(_ sound: Sound) throws -> AssetBytes {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same sound bakes to the same bytes
        let ranges = try encoder.encode(sound.ranges.mapValues { [$0.frames.lowerBound, $0.frames.upperBound, $0.loops ? 1 : 0] })
        return entry(
            .sound, sound.encoding, sound.format, frames: sound.frameCount, payload: sound.samples,
            ranges: sound.ranges.isEmpty ? [] : [UInt8](ranges))
    }

    /// The entry's bytes for `music`: header, encoded file.
    public static func encode(_ music: Music) -> AssetBytes {
        entry(.music, music.encoding, music.format, frames: music.frameCount, payload: music.encoded, ranges: [])
    }

    private static func entry(
        _ form: Form, _ encoding: AudioEncoding, _ format: AudioFormat, frames: Int, payload: AssetBytes, ranges: [UInt8]
    ) -> AssetBytes {
        var header = magic
        header += [form.rawValue, code(of: encoding), format.sampleFormat == .float32 ? 1 : 0, 0]
        header.appendLittleEndian(UInt32(format.sampleRate))
        header.appendLittleEndian(UInt32(format.channels))
        header.appendLittleEndian(UInt64(frames))
        header.appendLittleEndian(UInt64(payload.count))
        header.appendLittleEndian(UInt32(ranges.count))
        header += [UInt8](repeating: 0, count: headerSize - header.count)
        let total = headerSize + payload.count + ranges.count
        return AssetBytes(unsafeUninitializedCapacity: total) { buffer, count in
            header.withUnsafeBytes { buffer.copyMemory(from: $0) }
            payload.withUnsafeBytes { (buffer.baseAddress! + headerSize).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            ranges.withUnsafeBytes { bytes in
                if !bytes.isEmpty { (buffer.baseAddress! + headerSize + payload.count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
            }
            count = total
        }
    }

    /// The sound or music in an audio entry, `entry` (already checksummed), its payload a view of
    /// the entry's bytes.
    static func asset(in entry: BakedEntryContents) throws -> any Asset {
        let malformed = entry.malformed, count = entry.bytes.count
        guard count >= headerSize else { throw malformed("an audio entry of \(count) bytes, shorter than its header") }
        let header = Array(entry.bytes.prefix(headerSize))
        let fields = header.withUnsafeBytes { bytes in
            (
                rate: bytes.littleEndian(at: 8, as: UInt32.self), channels: bytes.littleEndian(at: 12, as: UInt32.self),
                frames: bytes.littleEndian(at: 16, as: UInt64.self), payload: bytes.littleEndian(at: 24, as: UInt64.self),
                ranges: bytes.littleEndian(at: 32, as: UInt32.self)
            )
        }
        guard Array(header[0..<4]) == magic, let form = Form(rawValue: header[4]), let encoding = encoding(of: header[5]), header[6] <= 1 else {
            throw malformed("its audio header does not read")
        }
        let sampleFormat: AudioSampleFormat = header[6] == 1 ? .float32 : .int16
        guard fields.rate > 0, fields.channels > 0, fields.channels <= 64, fields.frames < 1 << 40,
            fields.payload <= UInt64(count - headerSize), UInt64(fields.ranges) == UInt64(count - headerSize) - fields.payload
        else { throw malformed("its audio header gives sizes that do not fit the entry") }
        let format = AudioFormat(sampleRate: Int(fields.rate), channels: Int(fields.channels), sampleFormat: sampleFormat)
        let payload = entry.bytes.extracting(headerSize..<headerSize + Int(fields.payload))
        switch form {
        case .music:
            guard header[5] != 0 else { throw malformed("its music is of a third party's encoding, which a baked pack does not reopen") }
            return Music(encoded: payload, encoding: encoding, format: format, frameCount: Int(fields.frames))
        case .sound:
            guard UInt64(payload.count) == fields.frames * UInt64(format.bytesPerFrame) else {
                throw malformed("its \(fields.frames) frames of \(format) are not \(payload.count) bytes")
            }
            var ranges: [String: SoundRange] = [:]
            if fields.ranges > 0 {
                let json = entry.bytes.withUnsafeBytes { Data($0[(headerSize + payload.count)...]) }
                guard let table = try? JSONDecoder().decode([String: [Int]].self, from: json),
                    table.values.allSatisfy({ $0.count == 3 && 0 <= $0[0] && $0[0] <= $0[1] && $0[1] <= Int(fields.frames) })
                else { throw malformed("its sound's ranges do not read") }
                ranges = table.mapValues { SoundRange(frames: $0[0]..<$0[1], loops: $0[2] != 0) }
            }
            return Sound(samples: payload, format: format, frameCount: Int(fields.frames), encoding: encoding, ranges: ranges)
        }
    }

    /// The header's code of each encoding (stable: never renumbered).
    private static let codes: [AudioEncoding: UInt8] = [.wav: 1, .vorbis: 2, .flac: 3, .mp3: 4, .opus: 5]

    /// 0 for a third party's encoding: its sound's PCM reads back (as encoding "other"); its
    /// music, whose decoder the pack cannot name, fails by name when read.
    private static func code(of encoding: AudioEncoding) -> UInt8 { codes[encoding] ?? 0 }

    private static func encoding(of code: UInt8) -> AudioEncoding? {
        code == 0 ? AudioEncoding(rawValue: "other") : codes.first { $0.value == code }?.key
    }
}
