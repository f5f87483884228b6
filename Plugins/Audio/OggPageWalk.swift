import Preload

/// Whether an Ogg file (Vorbis or Opus) holds the whole of its stream, found by walking its
/// pages' headers (27 bytes and a segment table each, RFC 3533) without decoding them.
///
/// libvorbisfile and libsndfile take the last whole page as the end: a file cut inside a page
/// loads as its whole pages, the rest of its samples lost without a word. Here a page that runs
/// past the end of the file is truncation; a file whose pages are whole but whose last one is not
/// marked end-of-stream may be one cut at a page boundary or one whose muxer never marked the end
/// (players accept it): it loads with a warning, and fails as truncated only if the decoder
/// refuses it. Bytes that are not a page stop the walk without a verdict: damage inside the
/// stream is the decoder's to name.
struct OggPageWalk {
    /// How the file ends.
    enum End: Equatable {
        /// The last page is whole and marked end-of-stream (or the walk met bytes that are not
        /// a page and says nothing).
        case complete
        /// Every page is whole, the last (at `offset`) not marked end-of-stream.
        case unmarked(offset: Int)
        /// The page at `offset` declares `size` bytes (nil: its header is cut short); the file
        /// ends before them.
        case cut(offset: Int, size: Int?)
    }

    /// How the file ends.
    let end: End
    /// The granule position of the last whole page that has one (the stream's last sample
    /// there), if any.
    let lastGranule: Int64?
    /// The file's length.
    let count: Int

    /// Whether `bytes` start with an Ogg page's capture pattern.
    static func isOgg(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.starts(with: "OggS".utf8)
    }

    /// Walks the pages of the Ogg file `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        var position = 0
        var lastGranule: Int64?
        var lastFlags: UInt8 = 0
        var end = End.complete
        let capture = Array("OggS".utf8)
        walk: while position < bytes.count {
            let left = bytes.count - position
            guard left >= 27 else {
                // A header cut short, if what is left starts like one; otherwise trailing bytes.
                if (0..<min(left, 4)).allSatisfy({ bytes[position + $0] == capture[$0] }) {
                    end = .cut(offset: position, size: nil)
                }
                break walk
            }
            guard bytes[position...].starts(with: capture), bytes[position + 4] == 0 else { break walk }
            let segments = Int(bytes[position + 26])
            guard left >= 27 + segments else {
                end = .cut(offset: position, size: nil)
                break walk
            }
            let size = 27 + segments + (0..<segments).reduce(0) { $0 + Int(bytes[position + 27 + $1]) }
            guard size <= left else {
                end = .cut(offset: position, size: size)
                break walk
            }
            let granule = (try? ByteReader(bytes).littleEndian(at: position + 6, as: Int64.self, "a page's granule position")) ?? -1
            if granule != -1 { lastGranule = granule }  // -1: no packet ends on this page
            lastFlags = bytes[position + 5]
            position += size
            if position == bytes.count, lastFlags & 0x04 == 0 { end = .unmarked(offset: position - size) }
        }
        self.end = end
        self.lastGranule = lastGranule
        self.count = bytes.count
    }

    /// Throws when a page is cut short; the warning of an unmarked end, if any.
    func check() throws(AudioDecodeError) -> [AssetWarning] {
        switch end {
        case .complete: return []
        case .cut(let offset, let size):
            let page = size.map { "which declares \($0) bytes" } ?? "inside its header"
            throw .truncated("the file ends \(count - offset) bytes into the Ogg page at byte \(offset), \(page); \(wholePages)")
        case .unmarked(let offset):
            return [
                AssetWarning(
                    .oggUnmarkedEnd,
                    "the last Ogg page (at byte \(offset)) is not marked end-of-stream: the file may have been cut at a page boundary; "
                        + "\(wholePages), and were loaded")
            ]
        }
    }

    /// `error`, a decoder's refusal of this file, as truncation when the file's end says it was
    /// cut; nil when it does not.
    func truncation(explaining error: AudioDecodeError) -> AudioDecodeError? {
        guard case .unmarked(let offset) = end else { return nil }
        return .truncated("the last Ogg page (at byte \(offset)) is not marked end-of-stream, and the decoder refuses the file: \(error)")
    }

    private var wholePages: String {
        lastGranule.map { "the whole pages end at granule position \($0)" } ?? "no whole page carries audio"
    }
}
