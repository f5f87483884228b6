import Preload
import PreloadAnimation
import Testing

/// Damaged and hostile GIFs fail by name, never trap, never allocate what they claim.
@Suite struct GIFDamageTests {
    typealias F = GIFFixtures

    func failure(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) -> String? {
        do {
            _ = try GIFLoader.animation(from: bytes, limits: limits)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Every prefix of a file fails with a `GIFError`, or, cut right after a whole frame, loads
    /// the frames before the cut with the warning `gif.trailer`.
    @Test(arguments: ["animated_transparent_frame_restoreprev_loop", "animated_loop_interlaced"])
    func everyPrefixFailsByNameOrLoadsItsWholeFrames(name: String) {
        let bytes = F.file(name)
        let frameEnds = F.blocks(bytes).imageEnds
        for count in 0..<bytes.count {
            do {
                let (animation, warnings) = try GIFLoader.animation(from: Array(bytes.prefix(count)))
                #expect(warnings.map(\.code) == [.gifTrailer], "\(name) cut at \(count)")
                #expect(count >= frameEnds[animation.frames.count - 1], "\(name) cut at \(count) loaded a frame it does not hold whole")
            } catch let error as GIFError {
                #expect(count == 0 || error.category == .truncated, "\(name) cut at \(count): \(error)")
            } catch {
                Issue.record("\(name) cut at \(count): \(error) is not a GIFError")
            }
        }
    }

    @Test func aFileCutInsideAFrameNamesTheFrameAndTheRowsRead() {
        #expect(failure(Array(F.file("animated_loop").prefix(600))) == "truncated GIF: the file ends inside frame 1's pixels (40 of 100 rows read)")
        #expect(
            failure(Array(F.file("animated_loop").prefix(20)))
                == "truncated GIF: the file ends inside its logical screen descriptor or global colour table")
    }

    @Test func badLZWDataIsMalformedInGiflibsWords() {
        var bytes = F.file("animated_loop")
        let image = F.blocks(bytes).images[0]
        for offset in image + 13..<image + 60 { bytes[offset] = 0xFF }
        #expect(failure(bytes) == "malformed GIF: frame 1's pixels (0 of 100 rows read): giflib: Image is defective, decoding aborted")
    }

    /// giflib refuses an LZW code size past 8 as a failed read; the file is not at its end, so it
    /// is damage, not truncation.
    @Test func anLZWCodeSizePast8IsMalformedNotTruncated() {
        var bytes = F.file("animated_loop")
        bytes[F.blocks(bytes).images[0] + 10] = 11
        #expect(failure(bytes)?.hasPrefix("malformed GIF: frame 1's image descriptor: giflib: ") == true)
    }

    @Test func aScreenOfNoSizeIsMalformed() {
        var bytes = F.file("animated_loop")
        bytes.replaceSubrange(6..<8, with: [0, 0])
        #expect(failure(bytes) == "malformed GIF: the logical screen is 0x100, of no size")
    }

    /// A 65535x65535 screen is refused before its 16 GiB are allocated; a frame larger than the
    /// limit likewise; frames whose canvases together pass the memory limit stop at the frame
    /// that would.
    @Test func sizesPastTheLimitsAreRefusedBeforeAllocating() {
        var huge = F.file("animated_loop")
        huge.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(failure(huge) == "GIF too large: the logical screen is 65535x65535, larger than the limit 32768x32768, 1073741824 bytes")
        var wide = F.file("animated_loop")
        let second = F.blocks(wide).images[1]
        wide.replaceSubrange(second + 5..<second + 7, with: [0xFF, 0xFF])
        #expect(failure(wide) == "GIF too large: frame 2 is 65535x30, larger than the limit 32768x32768, 1073741824 bytes")
        let limits = ImageLimits(maxDecodedBytes: 3 * 100 * 100 * 4)
        #expect(failure(F.file("animated_loop"), limits: limits)?.hasPrefix("GIF too large: frame 3 of the 100x100 screen would take") == true)
        #expect(failure(F.file("animated_loop"), limits: ImageLimits(maxWidth: 99)) != nil)
    }

    @Test func aFrameOfNoPixelsShowsWhatWasThere() throws {
        var bytes = F.file("animated_loop")
        let second = F.blocks(bytes).images[1]
        bytes.replaceSubrange(second + 5..<second + 7, with: [0, 0])
        let animation = try GIFLoader.animation(from: bytes).animation
        let expected = try F.frames("animated_loop")
        #expect(animation.frames.count == 4)
        #expect(animation.canvasPixels(ofFrame: 1) == expected[0])
    }

    @Test func onlyGIF87aAndGIF89aAreGIFs() {
        var bytes = F.file("animated_loop")
        bytes.replaceSubrange(0..<6, with: Array("GIF88a".utf8))
        #expect(failure(bytes) == #"not a GIF: the file starts "GIF88a", not GIF87a or GIF89a"#)
        #expect(failure([]) == "not a GIF: the file is empty")
        #expect(failure(Array("<html>".utf8)) == #"not a GIF: the file starts "<html>", not GIF87a or GIF89a"#)
    }

    @Test func anUnknownRecordAfterTheLastFrameIsPassedOverWithAWarning() throws {
        var bytes = F.file("animated_loop")
        bytes[bytes.count - 1] = 0x55
        let (animation, warnings) = try GIFLoader.animation(from: bytes)
        #expect(animation.frames.count == 4)
        #expect(warnings.map(\.message) == ["a record of no known type follows frame 4: the 4 frames before it load"])
        bytes = Array(F.file("animated_loop").prefix(13 + 96)) + [0x55]
        #expect(failure(bytes) == "malformed GIF: the record before any frame: giflib: Wrong record type detected")
    }

    /// Found by fuzz-gif: a file whose trailer comes before any frame loaded as an animation of
    /// no frames.
    @Test func aFileWithNoFrameIsMalformed() {
        let bytes = Array(F.file("animated_loop").prefix(13 + 96)) + [0x3B]
        #expect(failure(bytes) == "malformed GIF: the file ends (its trailer) before any frame")
    }
}
