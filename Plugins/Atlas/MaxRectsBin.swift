/// One page's worth of space for the MaxRects packer (Jukka Jylänki, "A Thousand Ways to Pack the
/// Bin"): the free space is kept as a list of maximal free rectangles, possibly overlapping; a
/// rectangle goes where it leaves the shortest leftover side (best short side fit), every free
/// rectangle it overlaps is split, and free rectangles inside others are dropped.
struct MaxRectsBin {
    let width: Int
    let height: Int
    private(set) var free: [PixelRect]
    private(set) var usedArea = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        free = [PixelRect(x: 0, y: 0, width: width, height: height)]
    }

    /// Where a `width` x `height` rectangle would go, and whether turned 90° (if `allowRotation`),
    /// with its score (lower is better); `nil` if it does not fit.
    func bestPlace(width: Int, height: Int, allowRotation: Bool) -> (rect: PixelRect, rotated: Bool, score: (Int, Int))? {
        var best: (rect: PixelRect, rotated: Bool, score: (Int, Int))?
        func consider(_ w: Int, _ h: Int, rotated: Bool) {
            for space in free where w <= space.width && h <= space.height {
                let leftoverX = space.width - w, leftoverY = space.height - h
                let score = (min(leftoverX, leftoverY), max(leftoverX, leftoverY))
                if best == nil || score < best!.score {
                    best = (PixelRect(x: space.x, y: space.y, width: w, height: h), rotated, score)
                }
            }
        }
        consider(width, height, rotated: false)
        if allowRotation && width != height { consider(height, width, rotated: true) }
        return best
    }

    /// Takes `rect` (from ``bestPlace(width:height:allowRotation:)``) out of the free space.
    mutating func place(_ rect: PixelRect) {
        var untouched: [PixelRect] = []
        var pieces: [PixelRect] = []
        untouched.reserveCapacity(free.count)
        for space in free {
            guard overlaps(space, rect) else {
                untouched.append(space)
                continue
            }
            // The parts of `space` left, right, above and below `rect`.
            if rect.x > space.x {
                pieces.append(PixelRect(x: space.x, y: space.y, width: rect.x - space.x, height: space.height))
            }
            if rect.maxX < space.maxX {
                pieces.append(PixelRect(x: rect.maxX, y: space.y, width: space.maxX - rect.maxX, height: space.height))
            }
            if rect.y > space.y {
                pieces.append(PixelRect(x: space.x, y: space.y, width: space.width, height: rect.y - space.y))
            }
            if rect.maxY < space.maxY {
                pieces.append(PixelRect(x: space.x, y: rect.maxY, width: space.width, height: space.maxY - rect.maxY))
            }
        }
        // Untouched rectangles were maximal and cannot lie inside a piece of another maximal
        // one, so only the new pieces need checking: O(pieces x free) instead of O(free²).
        for (index, piece) in pieces.enumerated() {
            let redundant =
                untouched.contains { Self.contains($0, piece) }
                || pieces.enumerated().contains { other in
                    other.offset != index && Self.contains(other.element, piece) && (other.element != piece || other.offset < index)
                }
            if !redundant { untouched.append(piece) }
        }
        free = untouched
        usedArea += rect.width * rect.height
    }

    /// Occupied fraction of the whole bin.
    var occupancy: Double { Double(usedArea) / Double(max(width * height, 1)) }

    private func overlaps(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
    }

    private static func contains(_ outer: PixelRect, _ inner: PixelRect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
    }
}
