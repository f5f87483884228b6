import Preload  // public API only: what a third-party plugin reading a binary header uses
import Testing

/// `ByteReader`: integers in either byte order, every read checked against the end.
@Suite struct ByteReaderTests {
    @Test func readsBothByteOrdersAtTheCursorAndAtOffsets() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08] as [UInt8])
        let little = try reader.littleEndian(UInt16.self, "a"), big = try reader.bigEndian(UInt16.self, "b")
        let run = try reader.bytes(2, "c")
        #expect(little == 0x0201 && big == 0x0304 && run.elementsEqual([0x05, 0x06]))
        #expect(reader.offset == 6 && reader.remaining == 2)
        #expect(try reader.littleEndian(at: 0, as: UInt64.self, "d") == 0x0807_0605_0403_0201)
        #expect(try reader.bigEndian(at: 0, as: UInt32.self, "e") == 0x0102_0304)
        #expect(try reader.littleEndian(at: 1, byteCount: 3, "f") == 0x04_0302)
        #expect(try reader.bigEndian(at: 1, byteCount: 3, "g") == 0x02_0304)
        #expect(try reader.littleEndian(at: 6, as: Int16.self, "h") == 0x0807)
        #expect(try ByteReader([0xFF, 0xFF] as [UInt8]).littleEndian(at: 0, as: Int16.self, "i") == -1)
    }

    /// Offsets count from a slice's first byte, not from its base array's.
    @Test func aSliceIsReadFromItsOwnStart() throws {
        let bytes: [UInt8] = [0xAA, 0xBB, 0x34, 0x12]
        let reader = ByteReader(bytes[2...])
        #expect(try reader.littleEndian(at: 0, as: UInt16.self, "the value") == 0x1234)
        #expect(throws: TruncatedBytes(what: "the value", offset: 1, needed: 2, end: 2)) {
            try reader.littleEndian(at: 1, as: UInt16.self, "the value")
        }
    }

    /// A read past the end names what was cut, where it starts and where the bytes end; the
    /// cursor stays where it was, and nothing traps (negative offsets and counts included).
    @Test func aTruncatedReadNamesWhatWasCut() throws {
        var reader = ByteReader([0x52, 0x49, 0x46, 0x46, 0x24, 0x08] as [UInt8])
        _ = try reader.bytes(4, "the RIFF magic")
        var caught: TruncatedBytes?
        do { _ = try reader.littleEndian(UInt32.self, "the RIFF size") } catch { caught = error }
        let error = try #require(caught)
        #expect(error == TruncatedBytes(what: "the RIFF size", offset: 4, needed: 4, end: 6))
        #expect(error.description == "the RIFF size is cut short: 4 bytes at byte 4, but the data ends at byte 6")
        #expect(error.category == .truncated)
        #expect(reader.offset == 4)
        var skipped = true
        do { try reader.skip(3, "padding") } catch { skipped = false }
        #expect(!skipped && reader.offset == 4)
        #expect(throws: TruncatedBytes.self) { try reader.bytes(at: -1, count: 2, "before the start") }
        #expect(throws: TruncatedBytes.self) { try reader.bytes(at: 0, count: -1, "a negative count") }
        #expect(throws: TruncatedBytes.self) { try reader.bigEndian(at: Int.max, byteCount: 2, "far away") }
    }

    @Test func readsRawBufferPointers() throws {
        let value: UInt32 = 0xDEAD_BEEF
        let read = withUnsafeBytes(of: value.littleEndian) { raw in try? ByteReader(raw).littleEndian(at: 0, as: UInt32.self, "the word") }
        #expect(read == 0xDEAD_BEEF)
    }
}
