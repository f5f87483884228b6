import Preload

/// An MPEG audio Layer III frame header: the 4 bytes that start each frame of an MP3, and the
/// frame's length they give.
struct MP3FrameHeader {
    /// 3 for MPEG-1, 2 for MPEG-2, 0 for MPEG-2.5.
    let version: Int
    let sampleRateIndex: Int
    let isMono: Bool
    /// The frame's length in bytes, header included; nil for a free-format frame (whose length
    /// only the next header gives).
    let length: Int?

    private static let bitrates = (
        mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    )
    private static let rates = [44100, 48000, 32000]

    /// The header at `offset` of `bytes`: 11 sync bits, a valid version, layer III, a valid
    /// bitrate and rate; nil when the 4 bytes there are not one.
    init?(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let b1 = bytes[offset + 1]
        let b2 = bytes[offset + 2]
        guard bytes[offset] == 0xFF, b1 & 0xE0 == 0xE0, b1 & 0x18 != 0x08, b1 & 0x06 == 0x02, b2 & 0xF0 != 0xF0, b2 & 0x0C != 0x0C
        else { return nil }
        version = Int(b1 >> 3) & 3
        sampleRateIndex = Int(b2 >> 2) & 3
        isMono = bytes[offset + 3] >> 6 == 3
        let bitrate = (version == 3 ? Self.bitrates.mpeg1 : Self.bitrates.mpeg2)[Int(b2 >> 4)] * 1000
        let rate = Self.rates[sampleRateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let padding = Int(b2 >> 1) & 1
        length = bitrate == 0 ? nil : (version == 3 ? 144 : 72) * bitrate / rate + padding
    }

    /// Whether `next` belongs to the same stream: the same version and rate (what libmpg123
    /// holds constant; the bitrate and mode may change).
    func isFollowed(by next: MP3FrameHeader) -> Bool {
        next.version == version && next.sampleRateIndex == sampleRateIndex
    }
}

/// Whether an MP3 holds all of its frames, found by walking frame headers (each gives its
/// frame's length) without decoding. libmpg123 stops silently at a frame cut short, giving the
/// samples before it.
///
/// An MP3 has no length of its own: a file cut exactly between two frames is a shorter MP3. It
/// is known only when the first frame is a Xing/Info header (LAME and FFmpeg write one) whose
/// frame count (the frames after it, as libmpg123's gapless length reads it) is more than the
/// file holds. What the walk cannot read (junk between frames, a free-format stream) it leaves to
/// libmpg123, which resynchronises, without a verdict.
enum MP3FrameWalk {
    /// Throws ``AudioDecodeError/truncated(_:)`` when the MP3 in `bytes` is cut short: inside its
    /// ID3v2 tag, inside a frame, or before the frames its Xing/Info header counts.
    static func check(_ bytes: UnsafeRawBufferPointer) throws(AudioDecodeError) {
        var position = 0
        while position + 3 <= bytes.count, bytes[position] == UInt8(ascii: "I"), bytes[position + 1] == UInt8(ascii: "D"),
            bytes[position + 2] == UInt8(ascii: "3")
        {
            guard position + 10 <= bytes.count else {
                throw .truncated("the file ends at byte \(bytes.count), inside the header of the ID3v2 tag at byte \(position)")
            }
            let size = (6..<10).reduce(0) { $0 << 7 | Int(bytes[position + $1] & 0x7F) }
            let tag = 10 + size + (bytes[position + 5] & 0x10 != 0 ? 10 : 0)
            guard position + tag <= bytes.count else {
                throw .truncated("the ID3v2 tag at byte \(position) declares \(tag) bytes; the file has \(bytes.count - position)")
            }
            position += tag
        }
        guard bytes.count - position >= 4 else {
            throw .truncated("the file ends at byte \(bytes.count), before its first MPEG frame's header")
        }
        guard let first = MP3FrameHeader(bytes, at: position) else { return }  // junk first: libmpg123 searches
        let declared = xingFrameCount(bytes, first: first, at: position)
        var frames = 0
        while position < bytes.count {
            guard let header = MP3FrameHeader(bytes, at: position), first.isFollowed(by: header) else {
                if bytes.count - position < 4, bytes[position] == 0xFF {
                    throw .truncated("the file ends \(bytes.count - position) bytes into the header of MPEG frame \(frames + 1)")
                }
                guard isTrailingTag(bytes, at: position) else { return }  // not a frame: libmpg123's to judge
                break
            }
            guard let length = header.length else { return }  // free format
            guard position + length <= bytes.count else {
                throw .truncated(
                    "the file ends \(bytes.count - position) bytes into MPEG frame \(frames + 1) (at byte \(position)), "
                        + "which declares \(length) bytes")
            }
            position += length
            frames += 1
        }
        if let declared, frames - 1 < declared {
            throw .truncated("the file ends after \(frames - 1) of the \(declared) MPEG frames its Xing/Info header counts")
        }
    }

    /// The frame count of the Xing or Info header in the first frame (at `offset`), if it has one.
    private static func xingFrameCount(_ bytes: UnsafeRawBufferPointer, first: MP3FrameHeader, at offset: Int) -> Int? {
        let sideInformation = first.version == 3 ? (first.isMono ? 17 : 32) : (first.isMono ? 9 : 17)
        let tag = offset + 4 + sideInformation
        guard tag + 12 <= bytes.count else { return nil }
        let reader = ByteReader(bytes)
        guard bytes[tag...].starts(with: "Xing".utf8) || bytes[tag...].starts(with: "Info".utf8), bytes[tag + 7] & 1 != 0 else { return nil }
        return try? reader.bigEndian(at: tag + 8, byteCount: 4, "the Xing header's frame count")
    }

    /// Whether the bytes at `offset` start a tag that follows an MP3's frames: ID3v1 (`TAG`), APE
    /// (`APETAGEX`), Lyrics3 (`LYRICSBEGIN`) or an ID3v2 tag appended at the end.
    private static func isTrailingTag(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let rest = bytes.count - offset
        func starts(_ text: String) -> Bool {
            let utf8 = Array(text.utf8)
            return rest >= utf8.count && (0..<utf8.count).allSatisfy { bytes[offset + $0] == utf8[$0] }
        }
        return starts("TAG") || starts("APETAGEX") || starts("LYRICSBEGIN") || starts("ID3")
    }
}
