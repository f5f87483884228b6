import Foundation
import Preload
import PreloadAnimation
import PreloadPNG
import Testing

/// Pillow's own APNG test images (after Philip Taylor's APNG test suite), loaded by `APNGLoader`
/// and compared with the frames Pillow composites (`Fixtures/apng/references`, written by
/// `make_references.py`; Pillow is not needed here): every pixel, every duration, the loop count.
/// Where Pillow differs from the APNG specification, the specification is the reference and the
/// test says so.
@Suite struct APNGReferenceTests {
    static let folder = Bundle.module.url(forResource: "Fixtures/apng", withExtension: nil)!

    /// One file's entry in `references.json`.
    struct Reference {
        var frames: [[UInt8]]
        var durations: [Double?]
        var loop: Int?
        var animated: Bool
        var defaultImageIsFrame0: Bool
        var error: String?
    }

    static func reference(_ name: String) throws -> Reference {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "references/references.json")))
        let entry = try #require(((json as? [String: Any])?["files"] as? [String: Any])?[name] as? [String: Any])
        if let error = entry["error"] as? String {
            return Reference(frames: [], durations: [], loop: nil, animated: false, defaultImageIsFrame0: false, error: error)
        }
        let strip = try PNGDecoder.decode(Array(Data(contentsOf: folder.appending(path: "references/\(name)"))))
        let count = entry["frames"] as! Int, frameBytes = strip.pixels.count / count
        let pixels = strip.pixels.array
        return Reference(
            frames: (0..<count).map { Array(pixels[$0 * frameBytes..<($0 + 1) * frameBytes]) },
            durations: (entry["durations"] as! [Any]).map { $0 as? Double }, loop: entry["loop"] as? Int,
            animated: entry["animated"] as! Bool, defaultImageIsFrame0: entry["defaultImageIsFrame0"] as! Bool)
    }

    /// The first pixel where `ours` and `theirs` (canvases `width` wide) differ, worded, or `nil`.
    static func difference(_ ours: [UInt8], _ theirs: [UInt8], width: Int) -> String? {
        guard ours != theirs else { return nil }
        guard ours.count == theirs.count else { return "\(ours.count) bytes against \(theirs.count)" }
        let pixel = (0..<ours.count / 4).first { ours[$0 * 4..<$0 * 4 + 4] != theirs[$0 * 4..<$0 * 4 + 4] }!
        return
            "pixel (\(pixel % width), \(pixel / width)): \(Array(ours[pixel * 4..<pixel * 4 + 4])) against \(Array(theirs[pixel * 4..<pixel * 4 + 4]))"
    }

    static func load(_ name: String) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        let folder = name.hasPrefix("pillow-written-") ? "written" : "pillow"
        return try APNGLoader.animation(from: Array(Data(contentsOf: Self.folder.appending(path: "\(folder)/\(name)"))))
    }

    /// The files Pillow animates, where Pillow composites as the specification does.
    static let agreeing = [
        "blend_op_over.png", "blend_op_source_near_transparent.png", "blend_op_source_solid.png", "blend_op_source_transparent.png",
        "delay.png", "delay_round.png", "delay_short_max.png", "delay_zero_denom.png", "delay_zero_numer.png", "different_durations.png",
        "dispose_op_background.png", "dispose_op_background_before_region.png", "dispose_op_background_final.png",
        "dispose_op_background_p_mode.png", "dispose_op_background_region.png", "dispose_op_none.png", "dispose_op_none_region.png",
        "dispose_op_previous_final.png", "dispose_op_previous_first.png", "dispose_op_previous_frame.png", "fctl_actl.png",
        "mode_grayscale.png", "mode_palette.png", "mode_palette_alpha.png", "num_plays.png", "num_plays_1.png", "single_frame.png",
        "single_frame_default.png", "split_fdat.png", "split_fdat_zero_chunk.png",
        // Pillow's encoder (make_references.py): sub-frames at offsets, each dispose operation. (With
        // dispose previous its frames 3 to 5 differ from the frames it was given at (0...4, 37...58):
        // its encoding, not its decoding, which here agrees with the specification and the loader.)
        "pillow-written-source.png", "pillow-written-background.png", "pillow-written-previous.png",
    ]

    @Test(arguments: agreeing)
    func framesDurationsAndLoopsEqualPillows(_ name: String) throws {
        let reference = try Self.reference(name)
        let (animation, warnings) = try Self.load(name)
        #expect(warnings.isEmpty)
        let frames = Self.animationFrames(of: reference)
        #expect(animation.frames.count == frames.count)
        for (index, expected) in frames.enumerated() where index < animation.frames.count {
            #expect(Self.difference(animation.canvasPixels(ofFrame: index), expected, width: animation.width) == nil, "\(name): frame \(index)")
        }
        #expect(animation.frames.map(\.durationMilliseconds) == Self.durations(of: reference))
        #expect(animation.loopCount == (reference.loop ?? 0))
    }

    /// Pillow's frames without its frame 0 when that is a default image outside the animation:
    /// Pillow shows it as a frame; the APNG specification does not make it one.
    static func animationFrames(of reference: Reference) -> [[UInt8]] {
        Array(reference.frames.dropFirst(reference.defaultImageIsFrame0 ? 1 : 0))
    }

    /// Pillow's durations (floats of milliseconds) of the animation's frames, rounded.
    static func durations(of reference: Reference) -> [Int] {
        reference.durations.dropFirst(reference.defaultImageIsFrame0 ? 1 : 0).map { Int(($0 ?? 0).rounded()) }
    }

    /// Where Pillow composites otherwise than the APNG specification, the specification (and
    /// Philip Taylor's test suite, which says what each file must show) is the reference, from
    /// the frame given on; the frames before it equal Pillow's, and so do the durations and plays.
    /// - "over" with partial alpha: Pillow's result over an opaque canvas is not opaque (green at
    ///   alpha 2 drawn over opaque green, 127 times, fades Pillow's canvas to alpha 97; the suite:
    ///   "This should be solid green"). 16-bit, grey-alpha and 1-bit palette files with alpha 128
    ///   over opaque black: "dark blue", "solid grey", "solid dark blue".
    /// - `APNG_DISPOSE_OP_PREVIOUS`: Pillow's frame after a frame disposed to previous still shows
    ///   the disposed frame's red; the suite: "This should be solid green".
    @Test(arguments: [
        ("blend_op_over_near_transparent.png", 1, [0, 255, 0, 255] as [UInt8]), ("mode_16bit.png", 1, [0, 0, 128, 255]),
        ("mode_grayscale_alpha.png", 1, [128, 128, 128, 255]), ("mode_palette_1bit_alpha.png", 1, [0, 0, 128, 255]),
        ("dispose_op_previous.png", 2, [0, 255, 0, 255]), ("dispose_op_previous_region.png", 2, [0, 255, 0, 255]),
    ])
    func whereFramesDifferFromPillowsTheSpecificationIsTheReference(_ name: String, _ from: Int, _ solid: [UInt8]) throws {
        let reference = try Self.reference(name)
        let (animation, warnings) = try Self.load(name)
        #expect(warnings.isEmpty)
        let frames = Self.animationFrames(of: reference)
        #expect(animation.frames.count == frames.count && frames.count > from)
        #expect(animation.frames.map(\.durationMilliseconds) == Self.durations(of: reference))
        #expect(animation.loopCount == (reference.loop ?? 0))
        let canvas = Array([[UInt8]](repeating: solid, count: animation.width * animation.height).joined())
        for index in 0..<min(frames.count, animation.frames.count) {
            let ours = animation.canvasPixels(ofFrame: index)
            if index < from {
                #expect(Self.difference(ours, frames[index], width: animation.width) == nil, "\(name): frame \(index)")
            } else {
                #expect(Self.difference(ours, canvas, width: animation.width) == nil, "\(name): frame \(index) is solid \(solid)")
                #expect(frames[index] != canvas, "\(name): Pillow's frame \(index) differs")
            }
        }
    }

    /// Files Pillow opens as still images (no valid `acTL`): one frame, the default image, with
    /// the not-animated warning naming why.
    @Test(arguments: [
        ("chunk_actl_after_idat.png", "its acTL comes after the image data"), ("chunk_multi_actl.png", "it has 2 acTL chunks"),
        ("chunk_no_actl.png", "it has no acTL"), ("syntax_num_frames_invalid.png", "frame count is 2147483649"),
        ("syntax_num_frames_zero_default.png", "frame count is 0"),
    ])
    func stillFilesLoadTheirDefaultImageWithAWarning(_ name: String, _ reason: String) throws {
        let reference = try Self.reference(name)
        let (animation, warnings) = try Self.load(name)
        #expect(!reference.animated && animation.frames.count == 1)
        #expect(Self.difference(animation.canvasPixels(ofFrame: 0), reference.frames[0], width: animation.width) == nil)
        #expect(warnings.map(\.code) == [.apngNotAnimated])
        #expect(warnings.first?.message.contains(reason) == true, "\(warnings)")
    }

    /// More frames than `acTL` promises: Pillow plays the promised ones, and so does the loader,
    /// with a warning (the specification calls it an error and lets a decoder show the default
    /// image; nothing the file promised is lost).
    @Test func moreFramesThanPromisedLoadThePromisedOnesWithAWarning() throws {
        let reference = try Self.reference("syntax_num_frames_low.png")
        let (animation, warnings) = try Self.load("syntax_num_frames_low.png")
        #expect(animation.frames.count == 1 && reference.frames.count == 2)
        #expect(Self.difference(animation.canvasPixels(ofFrame: 0), reference.frames[1], width: animation.width) == nil)
        #expect(warnings.map(\.code) == [.apngFrameCount])
        #expect(warnings.first?.message.contains("acTL promises 1 frame; the file holds 2") == true)
    }

    /// The files Pillow refuses fail by name.
    @Test(arguments: [
        ("chunk_no_fctl.png", "comes before any fcTL of its own frame"), ("chunk_no_fdat.png", "has no image data"),
        ("chunk_repeat_fctl.png", "fcTL chunk at byte 295 has sequence number 0 where 1 comes next"),
        ("sequence_fdat_fctl.png", "fdAT chunk at byte 295 has sequence number 0 where 1 comes next"),
        ("sequence_gap.png", "sequence number 4 where 3 comes next"), ("sequence_reorder.png", "sequence number 4 where 3 comes next"),
        ("sequence_reorder_chunk.png", "sequence number 4 where 3 comes next"),
        ("sequence_repeat.png", "sequence number 2 where 3 comes next"), ("sequence_repeat_chunk.png", "sequence number 3 where 4 comes next"),
        ("sequence_start.png", "sequence number 1 where 0 comes next"), ("syntax_num_frames_high.png", "acTL promises 3 frames; the file holds 2"),
        ("syntax_num_frames_zero.png", "there is no IDAT chunk"),
    ])
    func filesPillowRefusesFailByName(_ name: String, _ cause: String) throws {
        #expect(try Self.reference(name).error != nil)
        let error = try #require(throws: APNGError.self) { try Self.load(name) }
        #expect("\(error)".contains(cause), "\(error)")
    }
}
