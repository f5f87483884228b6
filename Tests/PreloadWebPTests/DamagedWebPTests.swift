import Preload
import PreloadWebP
import PreloadTestSupport
import Testing

/// The fixtures' damaged twins: cut short, bytes changed, headers that lie. Always a typed
/// ``WebPDecodeError`` naming the cause, never a crash, a hang or a partly decoded image.
@Suite struct DamagedWebPTests {
    static let all = WebPFixtures.compared

    func decodeError(_ data: [UInt8], options: WebPLoaderSettings = WebPLoaderSettings()) -> WebPDecodeError? {
        do {
            _ = try WebPDecoder.decode(data, options: options)
            return nil
        } catch {
            return error as? WebPDecodeError
        }
    }

    /// The limit error `data` fails with (the one every image decoder throws), or `nil`.
    func limitError(_ data: [UInt8], options: WebPLoaderSettings = WebPLoaderSettings()) -> ImageLimitExceeded? {
        thrownError(ImageLimitExceeded.self) { _ = try WebPDecoder.decode(data, options: options) }
    }

    @Test func emptyAndForeignFilesAreRejected() {
        #expect(decodeError([]) == .emptyFile)
        #expect(decodeError(Array("GIF89a, not a WebP file".utf8)) == .notWebP)
        #expect(decodeError(Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8)) == .notWebP, "a RIFF file of another form")
        #expect(decodeError(Array("RIFF".utf8)) == .truncated("the file ends inside its RIFF header (4 bytes)"))
        #expect(WebPDecodeError.notWebP.description == "not a WebP file (no RIFF/WEBP header)")
        #expect(WebPDecodeError.notWebP.category == .corrupt && WebPDecodeError.emptyFile.category == .truncated)
    }

    /// Cut inside the RIFF header, inside the first chunk's header, inside the image data and one
    /// byte short of the end.
    @Test(arguments: all)
    func aFileCutShortIsTruncated(name: String) throws {
        let file = try WebPFixtures.bytes(name)
        for length in [3, 11, 16, 26, file.count / 3, file.count / 2, file.count - 10, file.count - 1] {
            let error = decodeError(Array(file.prefix(length)))
            #expect(error?.category == .truncated, "\(name) cut at \(length): \(String(describing: error))")
            #expect(error?.description.hasPrefix("truncated WebP: ") == true)
        }
    }

    /// Every prefix of every still fixture, with the RIFF size fixed up to match (so that only
    /// the chunks say the data is missing): never an image. (Not the last byte: it may be the
    /// padding after an odd-sized chunk, which the image does not need.)
    @Test(arguments: WebPFixtures.stills)
    func everyCutOfAStillImageFailsEvenWithItsRIFFSizeMadeToMatch(name: String) throws {
        let file = try WebPFixtures.bytes(name)
        var categories: Set<AssetError.Category> = []
        for length in 12..<file.count - 1 {
            let error = decodeError(WebPFixtures.fixingRIFFSize(Array(file.prefix(length))))
            #expect(error != nil, "\(name) cut at \(length) decoded")
            if let error { categories.insert(error.category) }
        }
        #expect(categories.isSubset(of: [.truncated, .corrupt]), "\(name): \(categories)")
    }

    /// Cut inside its last frame: truncated, though the first frame is whole. With the RIFF size
    /// made to match, the last frame's chunk runs past the end: corrupt.
    @Test func aCutAnimationFailsEvenWhenItsFirstFrameIsWhole() throws {
        let cut = Array(try WebPFixtures.bytes("pillow-animated.webp").dropLast(100))
        let error = decodeError(cut)
        #expect(error?.category == .truncated, "\(String(describing: error))")
        #expect(error?.description.hasSuffix("its RIFF header declares \(cut.count + 100)") == true)
        #expect(
            decodeError(WebPFixtures.fixingRIFFSize(cut))
                == .corrupt("the ANMF chunk at byte 1380 declares 622 bytes, past the RIFF chunk's end at byte 1910"))
    }

    @Test func aDamagedLossyStartCodeIsCorrupt() throws {
        var file = try WebPFixtures.bytes("cwebp-lossy.webp")
        #expect(file[23...25] == [0x9D, 0x01, 0x2A])
        file[24] ^= 0xFF
        let error = decodeError(file)
        #expect(error?.category == .corrupt && error?.description.hasPrefix("corrupt WebP: libwebp rejected") == true, "\(String(describing: error))")
    }

    @Test func aDamagedLosslessSignatureIsCorrupt() throws {
        var file = try WebPFixtures.bytes("cwebp-lossless.webp")
        #expect(file[12..<16].elementsEqual("VP8L".utf8) && file[20] == 0x2F)
        file[20] = 0x2E
        #expect(decodeError(file)?.category == .corrupt)
    }

    @Test func anUnknownImageChunkIsCorrupt() throws {
        var file = try WebPFixtures.bytes("pillow-lossless.webp")
        file[15] = UInt8(ascii: "Q")  // VP8L -> VP8Q
        #expect(decodeError(file)?.category == .corrupt)
    }

    @Test func aRIFFSizeTooSmallForItsChunkIsCorrupt() throws {
        var file = try WebPFixtures.bytes("pillow-lossy.webp")
        file[4...7] = [4, 0, 0, 0]
        #expect(decodeError(file)?.category == .corrupt)
    }

    @Test func damagedAnimationChunksAreCorrupt() throws {
        var file = try WebPFixtures.bytes("pillow-animated.webp")
        let anmf = try #require(firstIndex(of: "ANMF", in: file))
        file[anmf + 4 + 3] = 0x7F  // the first frame's chunk size: far past the end of the file
        let error = decodeError(file)
        #expect(
            error == .corrupt("the ANMF chunk at byte \(anmf) declares 2130707072 bytes, past the RIFF chunk's end at byte 2010"),
            "\(String(describing: error))")
    }

    /// The animation's container, walked without libwebp's demuxer: an ANMF before the ANIM
    /// chunk, an animation without frames and a frame without image data are each corrupt.
    @Test func malformedAnimationContainersAreCorrupt() throws {
        let file = try WebPFixtures.bytes("pillow-animated.webp")
        let anim = try #require(firstIndex(of: "ANIM", in: file))
        var renamed = file
        renamed[anim + 3] = UInt8(ascii: "X")  // ANIM -> ANIX: an unknown chunk, skipped
        #expect(decodeError(renamed) == .corrupt("frame 1 comes before the ANIM chunk"))

        // Every ANMF renamed: an animation whose frames are all unknown chunks.
        var frameless = file
        var from = 0
        while let anmf = firstIndex(of: "ANMF", in: frameless, from: from) {
            frameless[anmf + 3] = UInt8(ascii: "X")
            from = anmf + 4
        }
        #expect(decodeError(frameless) == .corrupt("an animation without frames"))

        // The first frame's image chunk renamed: a frame with no VP8/VP8L chunk.
        let anmf = try #require(firstIndex(of: "ANMF", in: file))
        var imageless = file
        imageless[anmf + 8 + 16 + 3] = UInt8(ascii: "X")
        #expect(decodeError(imageless)?.category == .corrupt)
    }

    /// Flipping any one byte of any fixture gives the whole image (WebP checks no checksums, so
    /// a flipped pixel byte can decode) or a typed error: never a trap, never a partial image.
    @Test(arguments: all)
    func flippingAnyByteDecodesWhollyOrFailsTyped(name: String) throws {
        let file = try WebPFixtures.bytes(name)
        var failures = 0
        for index in 0..<file.count {
            var damaged = file
            damaged[index] ^= 0x55
            do {
                let texture = try WebPDecoder.decode(damaged)
                #expect(texture.pixels.count == texture.width * texture.height * 4)
            } catch is WebPDecodeError {
                failures += 1
            } catch is ImageLimitExceeded {  // a flipped canvas size
                failures += 1
            } catch {
                Issue.record("\(name), byte \(index): \(error)")
            }
        }
        #expect(failures > 0, "\(name): some flips are caught")
    }

    @Test func theLimitsAreCheckedBeforeDecoding() throws {
        let file = try WebPFixtures.bytes("pillow-lossless.webp")  // 64x48
        let narrow = WebPLoaderSettings(limits: ImageLimits(maxWidth: 63))
        #expect(
            limitError(file, options: narrow)?.description
                == "image too large: 64x48 needs 12288 decoded bytes; the limits are 63x32768, 1073741824 bytes")
        let small = WebPLoaderSettings(limits: ImageLimits(maxDecodedBytes: 64 * 48 * 4 - 1))
        #expect(limitError(file, options: small)?.category == .limitExceeded)
        #expect(decodeError(file, options: WebPLoaderSettings(limits: ImageLimits(maxDecodedBytes: 64 * 48 * 4))) == nil)
    }

    /// A file of nothing but a VP8X header for a `width` x `height` canvas.
    func canvasOnly(width: Int, height: Int) -> [UInt8] {
        let sides = [width - 1, height - 1].flatMap { side in (0..<3).map { UInt8(truncatingIfNeeded: side >> (8 * $0)) } }
        let vp8x = Array("VP8X".utf8) + [10, 0, 0, 0] + [0x10, 0, 0, 0] + sides
        return WebPFixtures.fixingRIFFSize(Array("RIFF\0\0\0\0WEBP".utf8) + vp8x)
    }

    @Test func aHugeCanvasIsRefusedBeforeAnyPixelMemoryExists() {
        #expect(
            limitError(canvasOnly(width: 20000, height: 20000))?.description
                == "image too large: 20000x20000 needs 1600000000 decoded bytes; the limits are 16384x16384, 1073741824 bytes")
        let unlimited = WebPLoaderSettings(limits: ImageLimits(maxWidth: .max, maxHeight: .max, maxDecodedBytes: .max))
        // Within every limit: the header passes, and the missing image data is the error.
        #expect(decodeError(canvasOnly(width: 20000, height: 20000), options: unlimited)?.category == .truncated)
        // The format's largest canvas, 2^24 x 2^24: libwebp itself refuses an area of 2^32 or more.
        #expect(decodeError(canvasOnly(width: 1 << 24, height: 1 << 24), options: unlimited)?.category == .corrupt)
    }

    @Test func bytesAfterTheRIFFChunkLoadWithAWarning() throws {
        let file = try WebPFixtures.bytes("cwebp-lossy-alpha.webp")
        var warnings: [AssetWarning] = []
        let texture = try WebPDecoder.decode(file + [0, 1, 2, 3, 4], warn: { warnings.append($0) })
        #expect(texture.pixels == (try WebPFixtures.pillowPixels("cwebp-lossy-alpha.webp")))
        #expect(warnings == [AssetWarning(.webpTrailingData, "5 bytes after the RIFF chunk's end were ignored")])
    }

    private func firstIndex(of tag: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        let tag = Array(tag.utf8)
        return (start...(bytes.count - tag.count)).first { bytes[$0..<$0 + tag.count].elementsEqual(tag) }
    }
}
