import Preload
import PreloadPNG
import PreloadZlib

/// One chunk of a PNG file: its type and where its data lies in the file.
struct PNGChunk {
    /// The four type letters as one big-endian number (`IHDR` is 0x4948_4452).
    let type: UInt32
    /// Where the chunk starts (its length field) in the file.
    let offset: Int
    /// Its data, without the length, type and CRC.
    let data: Range<Int>

    static let IHDR = code("IHDR"), PLTE = code("PLTE"), tRNS = code("tRNS"), IDAT = code("IDAT"), IEND = code("IEND")
    static let acTL = code("acTL"), fcTL = code("fcTL"), fdAT = code("fdAT")

    /// The chunks whose CRC is checked: those an animation's frames are made of. A bad CRC on a
    /// critical one, or on `acTL`, `fcTL` or `fdAT`, fails the file (libpng fails a critical
    /// chunk's; an animation chunk dropped would lose frames silently); on `tRNS`, the chunk is
    /// left out with the PNG plugin's warning, as libpng leaves out an ancillary chunk.
    static let checked: Set<UInt32> = [IHDR, PLTE, tRNS, IDAT, IEND, acTL, fcTL, fdAT]

    /// The big-endian number of four ASCII letters.
    static func code(_ letters: StaticString) -> UInt32 {
        letters.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The chunk type's four letters ("fdAT").
    var name: String { Self.name(of: type) }

    /// The four letters of type `type`, printable or not.
    static func name(of type: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}

/// The chunk walk of a PNG file: the signature, then each chunk's length, type, data and CRC read
/// through core's `ByteReader`, up to `IEND`.
enum PNGChunkWalk {
    /// The chunks of `bytes` up to and including `IEND` (or up to the file's end when it has none:
    /// `endsWithIEND` is false), and the warnings the walk gave.
    /// - Throws: ``APNGError`` or `TruncatedBytes` naming the chunk at fault.
    static func chunks(of bytes: [UInt8]) throws -> (chunks: [PNGChunk], endsWithIEND: Bool, warnings: [AssetWarning]) {
        guard bytes.starts(with: PNGDecoder.signature) else {
            throw APNGError.notPNG(detail: bytes.isEmpty ? "the file is empty" : "no PNG signature")
        }
        let reader = ByteReader(bytes)
        var chunks: [PNGChunk] = []
        var warnings: [AssetWarning] = []
        var offset = PNGDecoder.signature.count
        while offset < bytes.count {
            let length = Int(try reader.bigEndian(at: offset, as: UInt32.self, "the length of the chunk at byte \(offset)"))
            let type = try reader.bigEndian(at: offset + 4, as: UInt32.self, "the type of the chunk at byte \(offset)")
            let name = PNGChunk.name(of: type)
            guard (0..<4).allSatisfy({ isLetter(UInt8(truncatingIfNeeded: type >> (8 * $0))) }) else {
                throw APNGError.malformed(detail: "the chunk at byte \(offset) has the type \(name.debugDescription), not four letters")
            }
            guard length <= Int(Int32.max) else {
                throw APNGError.malformed(detail: "the \(name) chunk at byte \(offset) says it has \(length) bytes, past PNG's 2^31 - 1")
            }
            try reader.require(length + 12, at: offset, "the \(name) chunk at byte \(offset) (\(length) bytes of data)")
            let chunk = PNGChunk(type: type, offset: offset, data: offset + 8..<offset + 8 + length)
            offset += length + 12
            if PNGChunk.checked.contains(type) {
                let stored = try reader.bigEndian(at: chunk.data.upperBound, as: UInt32.self, "the \(name) chunk's CRC")
                let computed = bytes.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[chunk.offset + 4..<chunk.data.upperBound])) }
                if stored != computed {
                    guard type == PNGChunk.tRNS else {
                        throw APNGError.malformed(detail: "the \(name) chunk at byte \(chunk.offset) has a bad CRC")
                    }
                    warnings.append(AssetWarning(.pngAncillaryCRC, "ancillary chunk tRNS has a bad CRC; it was ignored"))
                    continue
                }
            }
            chunks.append(chunk)
            if type == PNGChunk.IEND { return (chunks, true, warnings) }
        }
        return (chunks, false, warnings)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
