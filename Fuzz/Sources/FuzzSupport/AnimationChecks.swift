import Preload
import PreloadAnimation

/// What every loaded `SpriteAnimation` holds, whatever file it came from: frames that lie on
/// their pages and on the canvas, each drawn on the whole canvas, a frame for any time, tags that
/// name frames, slices whose keys are in frame order, a description. A harness of an animation format calls it on every animation that loads; a
/// broken promise traps, which libFuzzer reports as a finding.
public enum AnimationChecks {
    /// Traps unless `animation` keeps the promises above.
    public static func check(_ animation: SpriteAnimation) {
        for (index, frame) in animation.frames.enumerated() {
            let page = animation.pages[frame.page]
            precondition(frame.rect.x >= 0 && frame.rect.y >= 0 && frame.rect.x + frame.rect.width <= page.width)
            precondition(frame.rect.y + frame.rect.height <= page.height)
            precondition(frame.canvasRect.x + frame.canvasRect.width <= animation.width)
            precondition(frame.canvasRect.y + frame.canvasRect.height <= animation.height)
            precondition(frame.durationMilliseconds >= 0)
            precondition(animation.canvasPixels(ofFrame: index).count == animation.width * animation.height * 4)
        }
        precondition(animation.frames.isEmpty || animation.frameIndex(at: .milliseconds(12345)) != nil, "a time shows a frame")
        for tag in animation.tags {
            precondition(animation.frameIndex(at: .milliseconds(12345), tag: tag.name) != nil, "a tag names its frames")
        }
        for slice in animation.slices {
            precondition(zip(slice.keys, slice.keys.dropFirst()).allSatisfy { $0.frame <= $1.frame }, "a slice's keys by frame")
            for index in animation.frames.indices {
                if let key = slice.key(atFrame: index) { precondition(key.frame <= index && !key.isHidden) }
            }
        }
        _ = animation.assetDescription(checksums: nil)
    }
}
