/// Which frames of an ``AsepriteDocument`` composite to the same pixels, told before compositing:
/// a frame's key is each of its cels in file order (its layer, its z-index and the cel whose
/// image, position and opacity it shows: itself, or the cel a linked cel leads to), and, where
/// the palette gives the colours (an indexed sprite), which palette it has. Frames with equal
/// keys draw the same images in the same places in the same order, so they are one image:
/// Aseprite's linked cels make such frames (an idle pose held for several frames), and only the
/// first of them is composited.
///
/// A link that leads nowhere (to a frame without a cel on the layer, or in a circle) gives the
/// frame a key of its own, so that the compositor meets it and fails by name.
enum AsepriteFrameKeys {
    /// For each frame, the first frame with the same key (itself when it is the first).
    static func firstEqualFrames(_ document: AsepriteDocument) -> [Int] {
        var paletteNumbers = [Int](), paletteCount = 0
        for index in document.frames.indices {
            if document.depth == .indexed, index > 0, document.frames[index].palette != document.frames[index - 1].palette {
                paletteCount += 1
            }
            paletteNumbers.append(document.depth == .indexed ? paletteCount : 0)
        }
        var first = [[Int]: Int](), result = [Int]()
        result.reserveCapacity(document.frames.count)
        for index in document.frames.indices {
            guard let key = key(of: index, in: document, palette: paletteNumbers[index]) else {
                result.append(index)
                continue
            }
            if let earlier = first[key] {
                result.append(earlier)
            } else {
                first[key] = index
                result.append(index)
            }
        }
        return result
    }

    /// Frame `index`'s key, or `nil` when one of its links leads nowhere.
    private static func key(of index: Int, in document: AsepriteDocument, palette: Int) -> [Int]? {
        let cels = document.frames[index].cels
        var key = [Int]()
        key.reserveCapacity(cels.count * 4 + 1)
        key.append(palette)
        for (number, cel) in cels.enumerated() {
            guard let source = source(of: cel, at: (index, number), in: document) else { return nil }
            key += [cel.layer, cel.zIndex, source.frame, source.cel]
        }
        return key
    }

    /// The frame and cel number of the cel whose image `cel` (cel `at.cel` of frame `at.frame`)
    /// shows, following links; `nil` when a link leads nowhere.
    private static func source(of cel: AsepriteDocument.Cel, at: (frame: Int, cel: Int), in document: AsepriteDocument) -> (frame: Int, cel: Int)? {
        var current = (cel: cel, frame: at.frame, number: at.cel)
        for _ in 0...document.frames.count {
            guard case .linked(let target) = current.cel.content else { return (current.frame, current.number) }
            guard target < document.frames.count,
                let number = document.frames[target].cels.firstIndex(where: { $0.layer == cel.layer })
            else { return nil }
            current = (document.frames[target].cels[number], target, number)
        }
        return nil
    }
}
