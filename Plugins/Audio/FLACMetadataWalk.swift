import Preload

/// Whether a FLAC file holds all of its metadata blocks and some audio after them, found by
/// walking the blocks' headers (RFC 9639, section 8). libsndfile refuses a file cut inside its
/// metadata with "unknown error in flac decoder", which says nothing of the cut.
enum FLACMetadataWalk {
    private static let blockNames = ["STREAMINFO", "PADDING", "APPLICATION", "SEEKTABLE", "VORBIS_COMMENT", "CUESHEET", "PICTURE"]

    /// Whether `bytes` start with FLAC's `fLaC` marker.
    static func isFLAC(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.starts(with: "fLaC".utf8)
    }

    /// Throws ``AudioDecodeError/truncated(_:)`` when the FLAC file in `bytes` ends inside its
    /// metadata, or right after it while its STREAMINFO block counts samples.
    static func check(_ bytes: UnsafeRawBufferPointer) throws(AudioDecodeError) {
        var position = 4
        var samples = 0
        while true {
            guard position + 4 <= bytes.count else {
                throw .truncated("the file ends at byte \(bytes.count), inside the header of the FLAC metadata block at byte \(position)")
            }
            let type = Int(bytes[position] & 0x7F)
            let length = (try? ByteReader(bytes).bigEndian(at: position + 1, byteCount: 3, "a metadata block's length")) ?? 0
            let body = position + 4
            guard body + length <= bytes.count else {
                let name = type < blockNames.count ? blockNames[type] : "of type \(type)"
                throw .truncated(
                    "the FLAC metadata block \(name) at byte \(position) declares \(length) bytes; the file has \(bytes.count - body)")
            }
            if type == 0, length >= 18 {  // STREAMINFO: the total samples are its bits 108 to 143
                samples = (10..<18).reduce(0) { $0 << 8 | Int(bytes[body + $1]) } & 0xF_FFFF_FFFF
            }
            position = body + length
            if bytes[body - 4] & 0x80 != 0 { break }  // the last metadata block
        }
        if position == bytes.count, samples > 0 {
            throw .truncated("the file ends after its FLAC metadata, before the first of the \(samples) samples its STREAMINFO counts")
        }
    }
}
