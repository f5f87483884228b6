import Preload
import PreloadAnimation
import PreloadZlib
import Testing

/// Damaged APNGs fail by name, never trap: each kind of damage the specification names, every
/// prefix of a good file, a zlib bomb, frames past the memory limit.
@Suite struct APNGDamageTests {
    static func good() throws -> APNGFixture {
        try APNGFixture.animation(
            width: 4, height: 2,
            frames: [.solid(4, 2, [255, 0, 0, 255]), .solid(2, 2, [0, 255, 0, 255], x: 2), .solid(1, 1, [0, 0, 255, 255], x: 1, y: 1)])
    }

    static func failure(_ file: APNGFixture) -> String {
        do {
            _ = try APNGLoader.animation(from: file.bytes)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    @Test func aFrameOutsideTheCanvasFailsByName() throws {
        var file = try Self.good()
        let control = file.index(of: "fcTL", 1)
        file.chunks[control].data = APNGFixture.frameControl(.solid(2, 2, [0, 0, 0, 0], x: 3), sequence: 1)
        #expect(
            Self.failure(file)
                == "malformed APNG: frame 1 (fcTL sequence 1) is 2x2 at 3, 0: outside the 4x2 canvas (the APNG specification forbids overhanging frames)"
        )
    }

    @Test func anFdATBeforeItsFrameControlFailsByName() throws {
        var file = try Self.good()
        file.chunks.swapAt(file.index(of: "fcTL", 1), file.index(of: "fdAT", 0))
        #expect(Self.failure(file).contains("the fdAT chunk at byte 121 has sequence number 2 where 1 comes next"))
        // With the sequence numbers in file order, the fdAT still has no fcTL of its own.
        var renumbered = try Self.good()
        let data = renumbered.index(of: "fdAT", 0)
        renumbered.chunks.remove(at: renumbered.index(of: "fcTL", 1))
        renumbered.chunks[data - 1].data.replaceSubrange(0..<4, with: APNGFixture.be(1))
        #expect(Self.failure(renumbered).contains("the fdAT chunk (sequence 1) at byte"))
        #expect(Self.failure(renumbered).contains("comes before any fcTL of its own frame"))
    }

    @Test func aBadSequenceNumberFailsByName() throws {
        var file = try Self.good()
        file.chunks[file.index(of: "fdAT", 1)].data.replaceSubrange(0..<4, with: APNGFixture.be(7))
        #expect(
            Self.failure(file).hasSuffix("has sequence number 7 where 4 comes next (fcTL and fdAT chunks count from 0 without a gap or a repeat)"))
    }

    @Test func fewerFramesThanPromisedFailByName() throws {
        var file = try Self.good()
        file.chunks[file.index(of: "acTL")].data = APNGFixture.be(4) + APNGFixture.be(0)
        #expect(Self.failure(file) == "malformed APNG: acTL promises 4 frames; the file holds 3")
    }

    @Test func theDefaultImagesFrameMustBeTheCanvasSize() throws {
        var file = try Self.good()
        file.chunks[file.index(of: "fcTL")].data = APNGFixture.frameControl(.solid(4, 1, [0, 0, 0, 0]), sequence: 0)
        #expect(Self.failure(file).contains("the default image's fcTL (sequence 0) is 4x1 at 0, 0; IHDR is 4x2 at 0, 0"))
    }

    @Test func unknownOperationsFailByName() throws {
        var file = try Self.good()
        var frame = APNGFixture.Frame.solid(2, 2, [0, 0, 0, 0], x: 2)
        frame.dispose = 3
        file.chunks[file.index(of: "fcTL", 1)].data = APNGFixture.frameControl(frame, sequence: 1)
        #expect(Self.failure(file).contains("frame 1 (fcTL sequence 1) has dispose_op 3 and blend_op 0"))
    }

    /// A bad CRC on a chunk the animation needs fails; on `tRNS` the chunk is left out with the
    /// PNG plugin's warning, as libpng leaves out an ancillary chunk.
    @Test func crcsAreCheckedAsThePNGPluginChecksThem() throws {
        var file = try Self.good()
        file.chunks[file.index(of: "fdAT", 1)].badCRC = true
        #expect(Self.failure(file).hasPrefix("malformed APNG: the fdAT chunk at byte ") && Self.failure(file).hasSuffix("has a bad CRC"))
        var transparency = try Self.good()
        transparency.chunks.insert(APNGFixture.Chunk(type: "tRNS", data: [0, 0, 0, 0, 0, 0], badCRC: true), at: 1)
        let (animation, warnings) = try APNGLoader.animation(from: transparency.bytes)
        #expect(animation.frames.count == 3 && warnings.map(\.code) == [.pngAncillaryCRC])
    }

    /// Every prefix of a good file fails by name (a chunk cut short, a frame without its data, no
    /// IEND after a frame count the file does not reach), or loads with the no-IEND warning when
    /// only IEND is missing; never a trap.
    @Test func everyPrefixFailsByNameOrLoadsWithoutIEND() throws {
        let bytes = try Self.good().bytes
        for count in 0..<bytes.count {
            do {
                let (animation, warnings) = try APNGLoader.animation(from: Array(bytes.prefix(count)))
                #expect(count == bytes.count - 12 && animation.frames.count == 3 && warnings.map(\.code) == [.pngNoEnd], "prefix \(count)")
            } catch let error as APNGError {
                #expect(!"\(error)".isEmpty)
            } catch let error as TruncatedBytes {
                #expect("\(error)".contains("chunk"), "prefix \(count): \(error)")
            }
        }
    }

    /// A frame's image data that inflates far past its rows: the PNG decoder stops at the rows
    /// (libpng's warning passed on, naming the frame), no memory past the frame's.
    @Test func aZlibBombInAFrameIsBoundedByTheFramesSize() throws {
        var file = try Self.good()
        let bomb = try Zlib.compress([0, 0, 0, 255, 255] + [UInt8](repeating: 0, count: 64 << 20), level: 9)
        file.chunks[file.index(of: "fdAT", 1)].data = APNGFixture.be(4) + bomb
        let (animation, warnings) = try APNGLoader.animation(from: file.bytes)
        #expect(animation.frames.count == 3 && animation.canvasPixels(ofFrame: 2)[(4 + 1) * 4..<(4 + 2) * 4] == [0, 0, 255, 255])
        #expect(warnings.count == 1 && warnings[0].message.hasPrefix("frame 2 (fcTL sequence 3): "), "\(warnings)")
    }

    /// Frames whose composited canvases pass the limit are refused before any is decoded.
    @Test func framesPastTheMemoryLimitAreRefusedByName() throws {
        let error = #expect(throws: APNGError.self) {
            try APNGLoader.animation(from: try Self.good().bytes, limits: ImageLimits(maxDecodedBytes: 64))
        }
        #expect(error?.description == "unsupported APNG: 3 frames of 4x2 take the pixels past the 64-byte limit")
        #expect(throws: ImageLimitExceeded.self) { try APNGLoader.animation(from: try Self.good().bytes, limits: ImageLimits(maxWidth: 3)) }
    }

    @Test func aFileThatIsNotAPNGFailsByName() throws {
        #expect(Self.failure(APNGFixture(chunks: [])).hasPrefix("not a PNG file: the first chunk is missing"))
        #expect(throws: APNGError.notPNG(detail: "no PNG signature")) { try APNGLoader.animation(from: Array("GIF89a".utf8)) }
    }
}
