/// The chunks of a RIFF file (WAV, WebP, AVI ...), walked one header at a time: each a FourCC, a
/// 32-bit little-endian size and a payload padded to an even length. The one RIFF walk every
/// plugin uses; what a chunk means, and how strict to be about one that runs past the end, is
/// the plugin's.
///
/// The walk stops when fewer than a header's 8 bytes are left before ``end``: ``offset`` then
/// says where (``offset`` < ``end`` is a walk that stopped inside a chunk's header). A chunk whose
/// payload runs past ``end`` is still given, with ``RIFFChunk/fits`` false.
///
/// ```swift
/// import Preload
///
/// let file: [UInt8] = Array("RIFF\u{10}\0\0\0WAVEfmt \u{2}\0\0\0ab".utf8)
/// var chunks = RIFFChunks(file)
/// while let chunk = chunks.next() {
///     print(chunk.id, chunk.size, chunk.fits)  // fmt  2 true
/// }
/// ```
public struct RIFFChunks<Bytes: RandomAccessCollection<UInt8>>: IteratorProtocol where Bytes.Index == Int {
    /// The file's bytes.
    public let bytes: Bytes
    /// Where the walk ends: the RIFF chunk's end or the bytes' end, whichever comes first.
    public let end: Int
    /// Where the next chunk's header starts (after the walk: where it stopped).
    public private(set) var offset: Int

    /// A walk of the chunks of `bytes` from `start` (12: after the RIFF header) to `end` (the
    /// bytes' end by default; a plugin gives the RIFF chunk's end where that comes first).
    public init(_ bytes: Bytes, from start: Int = 12, end: Int? = nil) {
        self.bytes = bytes
        self.end = Swift.min(end ?? bytes.count, bytes.count)
        self.offset = start
    }

    /// The next chunk, or nil when fewer than 8 bytes are left before ``end``.
    public mutating func next() -> RIFFChunk? {
        let reader = ByteReader(bytes)
        guard offset >= 0, end - offset >= 8, let name = try? reader.bytes(at: offset, count: 4, "a chunk's FourCC"),
            let size = try? reader.littleEndian(at: offset + 4, as: UInt32.self, "a chunk's size")
        else { return nil }
        let chunk = RIFFChunk(id: RIFFChunk.name(name), offset: offset, size: Int(size), available: end - offset - 8)
        offset = Swift.min(end, chunk.payloadStart + chunk.size + (chunk.size & 1))  // payloads are padded to an even size
        return chunk
    }

    /// The RIFF header's size field (the file's length less 8, as the file declares it), or nil
    /// for fewer than 8 bytes.
    public static func riffSize(of bytes: Bytes) -> Int? {
        (try? ByteReader(bytes).littleEndian(at: 4, as: UInt32.self, "the RIFF size")).map(Int.init)
    }
}

/// One chunk of a RIFF file, as ``RIFFChunks`` found it.
public struct RIFFChunk: Sendable, Equatable {
    /// The chunk's FourCC as text ("fmt ", "VP8X"; a byte outside printable ASCII as `?`).
    public let id: String
    /// Where the chunk's header starts.
    public let offset: Int
    /// The payload's size as the header declares it (padding not included).
    public let size: Int
    /// The bytes between the payload's start and the walk's end.
    public let available: Int

    /// Where the payload starts.
    public var payloadStart: Int { offset + 8 }
    /// Whether the payload ends before the walk's end.
    public var fits: Bool { size <= available }
    /// The payload's bytes within the walk (cut at its end when the chunk does not fit).
    public var payload: Range<Int> { payloadStart..<payloadStart + Swift.min(size, available) }

    /// A FourCC's bytes as text, for messages and comparisons.
    static func name(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
