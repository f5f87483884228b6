import Preload  // public API only: the RIFF walk a third-party plugin uses
import Testing

/// `RIFFChunks`: the one RIFF walk (WAV, WebP): chunks, padding, a chunk past the end, a header cut short.
@Suite struct RIFFChunksTests {
    /// A RIFF file of `form` holding `chunks` (id, payload), each padded to an even size.
    private func riff(_ form: String, _ chunks: [(String, [UInt8])], declaredSizes: [Int?]? = nil) -> [UInt8] {
        var body = Array(form.utf8)
        for (index, (id, payload)) in chunks.enumerated() {
            let size = UInt32(declaredSizes?[index] ?? payload.count)
            body += Array(id.utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + body
    }

    @Test func walksEveryChunkOverItsPadding() {
        let file = riff("WAVE", [("fmt ", [1, 2, 3]), ("data", [9, 9, 9, 9]), ("LIST", [])])
        var chunks = RIFFChunks(file)
        var seen: [RIFFChunk] = []
        while let chunk = chunks.next() { seen.append(chunk) }
        #expect(seen.map(\.id) == ["fmt ", "data", "LIST"])
        #expect(seen.map(\.size) == [3, 4, 0] && seen.allSatisfy(\.fits))
        #expect(seen[1].offset == 12 + 8 + 4 && seen[1].payload == 32..<36)
        #expect(chunks.offset == chunks.end && chunks.end == file.count)
        #expect(RIFFChunks.riffSize(of: file) == file.count - 8)
    }

    /// A chunk that declares more than is left is given, not fitting, its payload cut at the end.
    @Test func aChunkPastTheEndIsGivenAsNotFitting() {
        let file = riff("WEBP", [("VP8X", [0, 0]), ("ANMF", [1, 2])], declaredSizes: [nil, 100])
        var chunks = RIFFChunks(file)
        _ = chunks.next()
        let long = chunks.next()
        #expect(long?.id == "ANMF" && long?.fits == false && long?.size == 100 && long?.available == 2)
        #expect(long?.payload == 30..<32)
        #expect(chunks.next() == nil && chunks.offset == file.count)
    }

    /// Fewer than 8 bytes after the last chunk: the walk stops there, and its offset says where.
    @Test func aHeaderCutShortStopsTheWalkBeforeTheEnd() {
        let file = riff("WAVE", [("fmt ", [1, 2])]) + Array("dat".utf8)
        var chunks = RIFFChunks(file)
        #expect(chunks.next()?.id == "fmt ")
        #expect(chunks.next() == nil)
        #expect(chunks.offset == 22 && chunks.end == 25)
        var none = RIFFChunks([UInt8](repeating: 0, count: 5))
        #expect(none.next() == nil && RIFFChunks.riffSize(of: [0x52, 0x49] as [UInt8]) == nil)
    }

    /// A walk may end before the bytes do (the RIFF chunk's end), and non-printable FourCC bytes read as `?`.
    @Test func aWalkEndsWhereItIsTold() {
        let file = riff("WAVE", [("a\u{1}c ", [1, 2]), ("data", [3, 4])])
        var chunks = RIFFChunks(file, end: 22)
        #expect(chunks.next()?.id == "a?c ")
        #expect(chunks.next() == nil && chunks.end == 22)
    }
}
