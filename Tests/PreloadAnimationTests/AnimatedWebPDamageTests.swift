import Preload
import PreloadAnimation
import PreloadWebP
import Testing

/// A damaged animated WebP fails by name (`WebPDecodeError`, naming the frame or chunk), never
/// traps and never loads part of the frames.
@Suite struct AnimatedWebPDamageTests {
    private static func error(_ file: [UInt8]) -> WebPDecodeError? {
        do {
            _ = try AnimatedWebPLoader.animation(from: file)
            return nil
        } catch {
            return error as? WebPDecodeError
        }
    }

    /// The `ANMF` chunk of frame `number` (from 1) in `file`.
    private static func frameChunk(_ number: Int, in file: [UInt8]) throws -> Int {
        var offset = 12
        for _ in 0..<number {
            offset = try #require(AnimatedWebPFixtures.offset(of: "ANMF", in: file, from: offset)) + 4
        }
        return offset - 4
    }

    @Test func aFrameOutsideTheCanvasIsRefusedByName() throws {
        var file = try AnimatedWebPFixtures.bytes("lossless-blend-keep.webp")
        let anmf = try Self.frameChunk(2, in: file)
        file[anmf + 8] = 12  // x/2 = 12: 24 + 20 columns on a 40-wide canvas
        #expect(Self.error(file) == .corrupt("frame 2 (20x14 at 24,4) lies outside the 40x30 canvas"))
    }

    @Test func aChunkCutShortIsCorrupt() throws {
        let file = try AnimatedWebPFixtures.bytes("lossy-alpha-dispose.webp")
        let anmf = try Self.frameChunk(3, in: file)
        var cut = Array(file[..<(anmf + 40)])
        cut[4..<8] = [UInt8(truncatingIfNeeded: cut.count - 8), UInt8(truncatingIfNeeded: (cut.count - 8) >> 8), 0, 0]
        let error = Self.error(cut)
        #expect(error?.category == .corrupt && "\(error!)".contains("the ANMF chunk at byte \(anmf) declares"), "\(String(describing: error))")
    }

    @Test func aFileShorterThanItsRIFFHeaderSaysIsTruncated() throws {
        let file = try AnimatedWebPFixtures.bytes("lossy-alpha-dispose.webp")
        #expect(Self.error(Array(file.dropLast(100)))?.category == .truncated)
    }

    @Test func badFrameDataFailsNamingTheFrame() throws {
        var file = try AnimatedWebPFixtures.bytes("mixed-no-blend.webp")
        let anmf = try Self.frameChunk(3, in: file)
        let image = anmf + 8 + 16 + 8  // frame 3's VP8L payload: its signature byte, then its size
        file[image] = 0x00
        let error = Self.error(file)
        #expect(error?.category == .corrupt && "\(error!)".contains("frame 3"), "\(String(describing: error))")
    }

    @Test func aFrameWhoseImageIsNotItsSizeIsCorrupt() throws {
        var file = try AnimatedWebPFixtures.bytes("lossless-blend-keep.webp")
        let anmf = try Self.frameChunk(2, in: file)
        file[anmf + 8 + 6] = 9  // width - 1: the header says 10 wide, the image is 20
        #expect(Self.error(file) == .corrupt("frame 2 declares 10x14 but its image is 20x14"))
    }

    @Test func anAnimationFlagWithNoFramesIsCorrupt() throws {
        var file = try AnimatedWebPFixtures.bytes("lossless-blend-keep.webp")
        var from = 12
        while let anmf = AnimatedWebPFixtures.offset(of: "ANMF", in: file, from: from) {
            file[anmf + 3] = UInt8(ascii: "X")
            from = anmf + 4
        }
        #expect(Self.error(file) == .corrupt("an animation without frames"))
    }

    /// Every prefix of a file (its RIFF size made to agree) fails by name or loads fewer frames:
    /// never a trap.
    @Test func everyPrefixFailsByNameOrLoads() throws {
        let file = try AnimatedWebPFixtures.bytes("lossy-alpha-dispose.webp")
        for length in stride(from: 0, to: file.count, by: 7) {
            var cut = Array(file[..<length])
            if cut.count >= 8 {
                let size = UInt32(cut.count - 8)
                cut[4..<8] = ArraySlice(withUnsafeBytes(of: size.littleEndian, Array.init))
            }
            do {
                _ = try AnimatedWebPLoader.animation(from: cut)
            } catch {
                #expect(error is WebPDecodeError || error is ImageLimitExceeded, "\(length): \(error)")
            }
        }
    }

    /// Any one byte flipped: the whole animation or a typed error.
    @Test func flippingAnyByteLoadsOrFailsTyped() throws {
        let file = try AnimatedWebPFixtures.bytes("mixed-no-blend.webp")
        for index in stride(from: 0, to: file.count, by: 3) {
            var flipped = file
            flipped[index] ^= 0xA5
            do {
                let (animation, _) = try AnimatedWebPLoader.animation(from: flipped)
                #expect(!animation.frames.isEmpty)
            } catch {
                #expect(error is WebPDecodeError || error is ImageLimitExceeded, "\(index): \(error)")
            }
        }
    }
}
