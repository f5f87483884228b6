/// The canvas an animation's frames are drawn on in turn, each over what the frames before it
/// left (animated GIF, APNG and animated WebP): the package's one compositor of such frames.
///
/// A frame is drawn by ``render(_:width:height:x:y:blend:disposal:shown:)``, which hands the
/// whole canvas as the frame shows it to its caller and then disposes of the frame's region as
/// the frame says, before the next frame draws: the canvas is not copied for the disposal to
/// write, unless the caller keeps what it was handed. The canvas starts transparent black (what
/// browsers and the specifications show; a GIF's background colour is not painted). A frame's
/// pixels are RGBA8, straight alpha, rows top first.
struct FrameCanvas {
    /// What becomes of a frame's region once the frame has shown.
    enum Disposal: Sendable {
        /// Left as drawn (GIF 0 and 1, APNG `APNG_DISPOSE_OP_NONE`, WebP "do not dispose").
        case keep
        /// Cleared to transparent black (GIF 2, APNG `APNG_DISPOSE_OP_BACKGROUND`, WebP
        /// "dispose to background").
        case clear
        /// Given back what it held before the frame drew (GIF 3, APNG `APNG_DISPOSE_OP_PREVIOUS`).
        case restorePrevious
    }

    /// How a frame's pixels meet the canvas's under them.
    enum Blend: Sendable {
        /// The frame's pixels replace the canvas's, alpha and all (APNG `APNG_BLEND_OP_SOURCE`,
        /// WebP "do not blend").
        case replace
        /// Straight-alpha "over" in the PNG specification's integer form (APNG
        /// `APNG_BLEND_OP_OVER`; a GIF's transparent index, whose alpha is only 0 or 255).
        case over
        /// Straight-alpha "over" in libwebp's integer form (WebP "use alpha blending"), so frames
        /// equal what libwebp's animation decoder gives, with its rules for what it does not
        /// blend: a key frame (the first, or one drawn after a whole-canvas frame, or a key frame,
        /// that was cleared: the canvas is then wholly transparent) replaces; so do the pixels
        /// inside the last frame's region when that frame was cleared. libwebp's integer "over"
        /// is not exact over a transparent pixel (255 at alpha 3 gives 254): it blends only
        /// where the canvas may hold something.
        case overWebP
    }

    /// The canvas's width in pixels.
    let width: Int
    /// The canvas's height in pixels.
    let height: Int
    /// The canvas now: `width * height` RGBA8 pixels.
    private(set) var pixels: [UInt8]
    /// What the last frame drawn left for libwebp's rules (``Blend/overWebP``): `nil` before the
    /// first frame.
    private var last: LastFrame?

    /// The last frame drawn, as libwebp's animation decoder remembers it.
    private struct LastFrame {
        /// The frame's region on the canvas, clipped (`nil`: nothing of it on the canvas).
        var region: Region?
        /// Whether its region was cleared once it showed.
        var cleared: Bool
        /// Whether it covered the whole canvas.
        var full: Bool
        /// Whether libwebp drew it as a key frame: over a wholly transparent canvas, unblended.
        var isKeyFrame: Bool
    }

    /// A rectangle of the canvas, edges in pixels (right and bottom exclusive).
    private typealias Region = (left: Int, top: Int, right: Int, bottom: Int)

    /// A transparent black `width` x `height` canvas.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Draws a `frameWidth` x `frameHeight` frame (`frame`: its RGBA8 pixels) with its top left
    /// corner at (`x`, `y`), blended by `blend`; calls `shown` with the whole canvas as the frame
    /// shows it (`width * height` RGBA8 pixels), then disposes of the frame's region by
    /// `disposal`. Returns what `shown` returns. A caller that keeps the pixels it is handed (a
    /// decoder holding every frame's canvas) keeps them as the frame showed them; one that only
    /// reads them (a trim copied out) lets the disposal write the canvas in place.
    ///
    /// The part of the frame outside the canvas is not drawn (browsers clip a GIF frame that
    /// overhangs its screen); a format that forbids overhanging frames refuses them before
    /// drawing.
    mutating func render<Result>(
        _ frame: [UInt8], width frameWidth: Int, height frameHeight: Int, x: Int, y: Int,
        blend: Blend, disposal: Disposal, shown: ([UInt8]) throws -> Result
    ) rethrows -> Result {
        precondition(frame.count >= frameWidth * frameHeight * 4, "a frame's pixels are width * height * 4 bytes")
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + frameWidth), bottom = min(height, y + frameHeight)
        let region: Region? = left < right && top < bottom ? (left: left, top: top, right: right, bottom: bottom) : nil
        let saved = disposal == .restorePrevious ? region.map { copy(of: $0) } : nil
        let full = left == 0 && top == 0 && right == width && bottom == height
        // libwebp's IsKeyFrame; its "no alpha" case blends as a replace does, so it needs no test.
        let isKeyFrame = last.map { ($0.cleared && ($0.full || $0.isKeyFrame)) || (full && blend == .replace) } ?? true
        let unblended: Region? = blend != .overWebP ? nil : isKeyFrame ? region : last.flatMap { $0.cleared ? $0.region : nil }
        if let region {
            pixels.withUnsafeMutableBufferPointer { canvas in
                frame.withUnsafeBufferPointer { source in
                    for row in region.top..<region.bottom {
                        var from = ((row - y) * frameWidth + (region.left - x)) * 4
                        var to = (row * width + region.left) * 4
                        let replaced = unblended.flatMap { row >= $0.top && row < $0.bottom ? $0.left..<$0.right : nil } ?? 0..<0
                        for column in region.left..<region.right {
                            Self.blend(replaced.contains(column) ? .replace : blend, source, from, into: canvas, to)
                            from += 4
                            to += 4
                        }
                    }
                }
            }
        }
        last = LastFrame(region: region, cleared: disposal == .clear, full: full, isKeyFrame: isKeyFrame)
        let result = try shown(pixels)
        if let region {
            switch disposal {
            case .keep: break
            case .clear: fill(region, from: nil)
            case .restorePrevious: fill(region, from: saved)
            }
        }
        return result
    }

    /// One pixel of `source` at `from` blended onto `canvas` at `to` by `blend`.
    @inline(__always)
    private static func blend(
        _ blend: Blend, _ source: UnsafeBufferPointer<UInt8>, _ from: Int,
        into canvas: UnsafeMutableBufferPointer<UInt8>, _ to: Int
    ) {
        let sourceAlpha = Int(source[from + 3])
        let destinationAlpha = Int(canvas[to + 3])
        if blend == .replace || sourceAlpha == 255 || (blend == .over && sourceAlpha != 0 && destinationAlpha == 0) {
            for channel in 0..<4 { canvas[to + channel] = source[from + channel] }
            return
        }
        if sourceAlpha == 0 { return }
        switch blend {
        case .replace:
            return
        case .over:
            // The PNG specification's straight-alpha compositing, in integers as APNG's
            // reference decoder does it: weights a*255 and (255-a)*dst.a.
            let sourceWeight = sourceAlpha * 255
            let destinationWeight = (255 - sourceAlpha) * destinationAlpha
            let total = sourceWeight + destinationWeight
            for channel in 0..<3 {
                let value = Int(source[from + channel]) * sourceWeight + Int(canvas[to + channel]) * destinationWeight
                canvas[to + channel] = UInt8(value / total)
            }
            canvas[to + 3] = UInt8(total / 255)
        case .overWebP:
            // libwebp's non-premultiplied blending (its animation decoder's): the destination's
            // alpha weighted by 256 - a, a reciprocal scale in 24-bit fixed point, which
            // truncates even over a transparent destination (255 at alpha 3 gives 254).
            let destinationFactor = (destinationAlpha * (256 - sourceAlpha)) >> 8
            let blendedAlpha = sourceAlpha + destinationFactor
            let scale = (1 << 24) / blendedAlpha
            for channel in 0..<3 {
                let value = Int(source[from + channel]) * sourceAlpha + Int(canvas[to + channel]) * destinationFactor
                canvas[to + channel] = UInt8(truncatingIfNeeded: (value * scale) >> 24)
            }
            canvas[to + 3] = UInt8(blendedAlpha)
        }
    }

    /// The canvas's pixels inside `region`, rows top first.
    private func copy(of region: Region) -> [UInt8] {
        var copied = [UInt8]()
        copied.reserveCapacity((region.right - region.left) * (region.bottom - region.top) * 4)
        for row in region.top..<region.bottom {
            copied += pixels[(row * width + region.left) * 4..<(row * width + region.right) * 4]
        }
        return copied
    }

    /// Writes `region` from `saved` (its earlier pixels, rows top first), or transparent black
    /// when `saved` is `nil`.
    private mutating func fill(_ region: Region, from saved: [UInt8]?) {
        let rowBytes = (region.right - region.left) * 4
        for (index, row) in (region.top..<region.bottom).enumerated() {
            let start = (row * width + region.left) * 4
            if let saved {
                pixels.replaceSubrange(start..<start + rowBytes, with: saved[index * rowBytes..<(index + 1) * rowBytes])
            } else {
                pixels.replaceSubrange(start..<start + rowBytes, with: repeatElement(0, count: rowBytes))
            }
        }
    }
}
