import Preload
import PreloadAnimation
import PreloadZlib
import Testing

/// Damaged and unsupported files fail by name, never trap, never allocate what they claim.
@Suite struct AsepriteDamageTests {
    typealias F = AsepriteFixture

    func failure(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) -> String? {
        do {
            _ = try AsepriteLoader.animation(from: bytes, limits: limits)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aFrameCountThatLiesIsTruncation() throws {
        var file = try F.twoLayers()
        file.statedFrameCount = 3
        #expect(failure(file.bytes) == "truncated Aseprite file: the header says 3 frames; the file ends before frame 3 of 3")
        #expect(throws: AsepriteError.self) { try AsepriteLoader.animation(from: file.bytes) }
    }

    @Test func aFrameCutShortIsTruncation() throws {
        let bytes = try F.twoLayers().bytes
        #expect(failure(Array(bytes.dropLast(10)))?.hasPrefix("truncated Aseprite file: frame 2 of 2 says it has") == true)
    }

    @Test func aChunkSizePastItsFrameIsNamed() throws {
        var file = F(width: 1, height: 1)
        var layer = F.layer("a")
        layer.replaceSubrange(0..<4, with: F.dword(4000))
        file.frames = [F.Frame(duration: 1, chunks: [layer])]
        #expect(
            failure(file.bytes)?.hasPrefix("malformed Aseprite file: frame 1 of 1's chunk 1 of 1 says it has 4000 bytes, past the frame's end")
                == true)
    }

    @Test func aChunkCountThatLiesIsNamed() throws {
        var bytes = try F.twoLayers().bytes
        bytes.replaceSubrange(128 + 12..<128 + 16, with: F.dword(9))  // frame 1 has 5 chunks
        #expect(failure(bytes)?.hasPrefix("malformed Aseprite file: frame 1 of 2's chunk 6 of 9 starts past the frame's end") == true)
    }

    @Test func aCelOnALayerThatDoesNotExist() throws {
        var file = F(width: 1, height: 1)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("a"), F.rawCel(layer: 3, width: 1, height: 1, pixels: [0, 0, 0, 0])])]
        #expect(failure(file.bytes) == "malformed Aseprite file: frame 1 of 1's chunk 2 of 2 is a cel on layer 3, but the file has 1 layers")
    }

    @Test func linksOutsideTheFramesOrToNoCel() throws {
        var file = F(width: 1, height: 1)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("a"), F.linkedCel(layer: 0, frame: 7)])]
        #expect(failure(file.bytes)?.contains("links to frame 8, outside the file's 1 frames") == true)
        file.frames = [
            F.Frame(duration: 1, chunks: [F.layer("a"), F.layer("b"), F.rawCel(layer: 1, width: 1, height: 1, pixels: [1, 1, 1, 1])]),
            F.Frame(duration: 1, chunks: [F.linkedCel(layer: 0, frame: 0)]),
        ]
        #expect(failure(file.bytes) == "malformed Aseprite file: frame 2's cel on layer 'a' links to frame 1, which has no cel there")
    }

    @Test func aZlibBombStopsAtTheCelsSize() throws {
        var file = F(width: 2, height: 2)
        let bomb = try Zlib.compress([UInt8](repeating: 0, count: 1 << 20), level: 9)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("a"), try F.compressedCel(layer: 0, width: 2, height: 2, pixels: [], stored: bomb)])]
        #expect(failure(file.bytes) == "malformed Aseprite file: frame 1 of 1's chunk 2 of 2's 2x2 cel's compressed pixels inflate past its 16 bytes")
    }

    /// A cel stored with the same bytes as an earlier one is inflated once, but only for a cel of
    /// the same size: a larger cel whose bytes repeat a smaller one's still ends short by name.
    @Test func aRepeatedStreamIsReusedOnlyForACelOfItsSize() throws {
        var file = F(width: 2, height: 2)
        let pixels = (0..<16).map { UInt8($0 * 16) }
        let stored = try Zlib.compress(pixels, level: 9)
        let cel = try F.compressedCel(layer: 0, width: 2, height: 2, pixels: [], stored: stored)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("a"), cel]), F.Frame(duration: 1, chunks: [cel])]
        let (animation, _) = try AsepriteLoader.animation(from: file.bytes)
        #expect(animation.frames.count == 2)
        file.frames[1] = F.Frame(duration: 1, chunks: [try F.compressedCel(layer: 0, width: 2, height: 4, pixels: [], stored: stored)])
        #expect(
            failure(file.bytes) == "malformed Aseprite file: frame 2 of 2's chunk 1 of 1's 2x4 cel's compressed pixels inflate to 16 bytes, not 32")
    }

    @Test func compressedPixelsThatEndShortOrAreNotZlib() throws {
        var file = F(width: 2, height: 2)
        let short = try Zlib.compress([1, 2, 3], level: 9)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("a"), try F.compressedCel(layer: 0, width: 2, height: 2, pixels: [], stored: short)])]
        #expect(
            failure(file.bytes) == "malformed Aseprite file: frame 1 of 1's chunk 2 of 2's 2x2 cel's compressed pixels inflate to 3 bytes, not 16")
        file.frames = [
            F.Frame(duration: 1, chunks: [F.layer("a"), try F.compressedCel(layer: 0, width: 2, height: 2, pixels: [], stored: [1, 2, 3, 4])])
        ]
        #expect(
            failure(file.bytes)?.hasPrefix("malformed Aseprite file: frame 1 of 1's chunk 2 of 2's 2x2 cel's compressed pixels: inflate:") == true)
    }

    @Test func pixelMemoryPastTheLimitIsRefusedBeforeItExists() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(duration: 1, chunks: [F.layer("a"), try F.compressedCel(layer: 0, width: 65535, height: 65535, pixels: [], stored: [])])
        ]
        #expect(failure(file.bytes)?.contains("65535x65535 cel takes the pixels past the 1073741824-byte limit") == true)
        let small = ImageLimits(maxWidth: 8, maxHeight: 8, maxDecodedBytes: 1 << 20)
        #expect(
            failure(F(width: 9, height: 1, frames: [F.Frame(duration: 1, chunks: [])]).bytes, limits: small)?.contains("larger than the limit")
                == true)
    }

    @Test func anUnknownBlendModeIsRefusedByName() throws {
        var file = F(width: 1, height: 1)
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("Shade", blendMode: 19)])]
        #expect(failure(file.bytes) == "malformed Aseprite file: layer 'Shade' blends in unknown blend mode 19")
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("Shade", flags: 0, blendMode: 19)])]
        #expect(failure(file.bytes) == nil)  // hidden: nothing of it is composited
        file.frames = [F.Frame(duration: 1, chunks: [F.layer("Shade", blendMode: 12), F.layer("Light", blendMode: 15)])]
        #expect(failure(file.bytes) == nil)  // hue and luminosity composite
    }

    @Test func notAnAsepriteFileAndBadHeaders() throws {
        #expect(failure(Array(repeating: 0, count: 200)) == "not an Aseprite file: no 0xA5E0 magic number at byte 4")
        #expect(failure([1, 2, 3]) == "not an Aseprite file: 3 bytes, too short to hold the 0xA5E0 magic number at byte 4")
        // The magic, then a header cut short: an Aseprite file that ends early.
        #expect(
            failure(Array(try F.twoLayers().bytes.prefix(100))) == "truncated Aseprite file: the 128-byte header is cut short: the file has 100 bytes"
        )
        #expect(failure(Array("not an image, just some text".utf8)) == "not an Aseprite file: no 0xA5E0 magic number at byte 4")
        #expect(failure(F(width: 1, height: 1, depth: 24, frames: [F.Frame(duration: 1, chunks: [])]).bytes)?.contains("colour depth 24") == true)
        #expect(failure(F(width: 1, height: 1).bytes) == "malformed Aseprite file: the header says the file has no frames")
    }

    @Test func everyPrefixOfAGoodFileFailsWithoutTrapping() throws {
        let bytes = try F.twoLayers().bytes
        for length in 0..<bytes.count {
            #expect(failure(Array(bytes.prefix(length))) != nil, "prefix of \(length) bytes")
        }
    }
}
