import Preload

/// Places rectangles on pages with the MaxRects packer that packs sprite folders (Jukka Jylänki,
/// "A Thousand Ways to Pack the Bin": best short side fit): largest first, onto as many pages as
/// they need, each page then repacked into the smallest area that holds its rectangles (unless
/// ``shrinksPages`` is off). For a
/// plugin that makes pages of its own (glyphs rasterized at load), so that every page the
/// package makes is packed one way.
///
/// ```swift
/// import PreloadAtlas
///
/// let packer = RectanglePacker(maxPageSize: 256, spacing: 1)
/// let packing = try packer.pack([(width: 20, height: 30), (width: 200, height: 10)])
/// for placement in packing.placements {
///     print("page \(placement.page) at \(placement.rect)")
/// }
/// print(packing.pageSizes)
/// ```
public struct RectanglePacker: Hashable, Sendable {
    /// The largest page side, from 1 to ``AtlasLoaderSettings/largestPageSize``.
    public var maxPageSize: Int { didSet { maxPageSize = AtlasLoaderSettings.clamped(maxPageSize, 1) } }
    /// Empty pixels between neighbouring rectangles (none is left at a page's edges), from 0 to
    /// ``AtlasLoaderSettings/largestPageSize``.
    public var spacing: Int { didSet { spacing = AtlasLoaderSettings.clamped(spacing, 0) } }
    /// Whether a rectangle may be turned 90° to fit better (``Placement/isRotated``).
    public var allowsRotation: Bool
    /// Whether pages are sized in powers of two (the layout is then chosen for the smallest such
    /// page).
    public var powerOfTwoPages: Bool
    /// Whether each page is repacked, after the greedy pass, into the smallest area that holds its
    /// rectangles (trying 25 widths: any shape, a tall strip if its area is least). Off, a page
    /// keeps the greedy layout in its `maxPageSize` square, cut to its rectangles' bounds: 25 times
    /// less work, and a page as square as the bin when the bin is sized to the rectangles' area.
    public var shrinksPages: Bool

    /// A packer; each value is brought into range as documented on its property.
    public init(
        maxPageSize: Int = 2048, spacing: Int = 0, allowsRotation: Bool = false, powerOfTwoPages: Bool = false, shrinksPages: Bool = true
    ) {
        self.maxPageSize = AtlasLoaderSettings.clamped(maxPageSize, 1)
        self.spacing = AtlasLoaderSettings.clamped(spacing, 0)
        self.allowsRotation = allowsRotation
        self.powerOfTwoPages = powerOfTwoPages
        self.shrinksPages = shrinksPages
    }

    /// Where one rectangle went.
    public struct Placement: Hashable, Sendable {
        /// The page it is on, from 0.
        public var page: Int
        /// Its place on the page; width and height swapped when ``isRotated``.
        public var rect: PixelRect
        /// Whether it was turned 90°.
        public var isRotated: Bool
    }

    /// Where every rectangle went, and how large each page must be.
    public struct Packing: Sendable {
        /// One placement per rectangle, in the order they were given.
        public var placements: [Placement]
        /// Each page's size: the smallest that holds its rectangles (at least 1x1; a power of two
        /// a side under ``RectanglePacker/powerOfTwoPages``).
        public var pageSizes: [(width: Int, height: Int)]
    }

    /// A rectangle larger than a page: it fits on none.
    public struct TooLarge: AssetFailure, Hashable {
        /// Its position in the rectangles given, and its size.
        public var index: Int, width: Int, height: Int
        /// The largest page side (``RectanglePacker/maxPageSize``).
        public var maxPageSize: Int

        /// Rectangle `index`, `width` x `height`, over pages of at most `maxPageSize` a side.
        public init(index: Int, width: Int, height: Int, maxPageSize: Int) {
            (self.index, self.width, self.height, self.maxPageSize) = (index, width, height, maxPageSize)
        }

        /// A rectangle over every page's size is over a limit.
        public var category: AssetError.Category { .limitExceeded }
        public var description: String { "rectangle \(index) is \(width)x\(height), larger than a page (at most \(maxPageSize) a side)" }
    }

    /// Packs rectangles onto pages, largest first (the longer side, then the area, then the
    /// order given, so the layout is stable).
    /// - Parameters:
    ///   - sizes: each rectangle's width and height (no side below 0).
    ///   - isCancelled: asked between rectangles; when it says yes, packing stops with
    ///     `CancellationError`.
    ///   - progress: the fraction of rectangles placed, from 0 to 1.
    /// - Throws: ``TooLarge`` for the first rectangle with a side over ``maxPageSize``.
    public func pack(
        _ sizes: [(width: Int, height: Int)], isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }
    ) throws -> Packing {
        for (index, size) in sizes.enumerated() {
            precondition(size.width >= 0 && size.height >= 0, "a rectangle of negative size")
            if size.width > maxPageSize || size.height > maxPageSize {
                throw TooLarge(index: index, width: size.width, height: size.height, maxPageSize: maxPageSize)
            }
        }
        let order = sizes.indices.sorted { a, b in
            let (wa, ha, wb, hb) = (sizes[a].width, sizes[a].height, sizes[b].width, sizes[b].height)
            if max(wa, ha) != max(wb, hb) { return max(wa, ha) > max(wb, hb) }
            if wa * ha != wb * hb { return wa * ha > wb * hb }
            return a < b
        }
        // Each slot is the rectangle plus the spacing to its right and below; a bin is one
        // spacing larger than the page, so the last column's spacing may hang off the edge.
        var bins: [MaxRectsBin] = []
        var slots = [(bin: Int, slot: PixelRect, rotated: Bool)?](repeating: nil, count: sizes.count)
        for (done, index) in order.enumerated() {
            if isCancelled() { throw CancellationError() }
            let width = sizes[index].width + spacing, height = sizes[index].height + spacing
            var chosen: (bin: Int, slot: PixelRect, rotated: Bool)?
            for bin in bins.indices {
                if let place = bins[bin].bestPlace(width: width, height: height, allowRotation: allowsRotation) {
                    chosen = (bin, place.rect, place.rotated)
                    break
                }
            }
            if chosen == nil {
                bins.append(MaxRectsBin(width: maxPageSize + spacing, height: maxPageSize + spacing))
                let place = bins[bins.count - 1].bestPlace(width: width, height: height, allowRotation: allowsRotation)!
                chosen = (bins.count - 1, place.rect, place.rotated)
            }
            bins[chosen!.bin].place(chosen!.slot)
            slots[index] = chosen
            progress(Double(done + 1) / Double(max(sizes.count, 1)))
        }
        // The greedy pass spreads a page's rectangles over the whole bin; repack each page into
        // the smallest area it fits (the last page of a set is often half empty otherwise).
        for bin in bins.indices where shrinksPages {
            if isCancelled() { throw CancellationError() }
            let members = order.filter { slots[$0]!.bin == bin }
            let memberSlots = members.map { (sizes[$0].width + spacing, sizes[$0].height + spacing) }
            let current = members.map { (slots[$0]!.slot, slots[$0]!.rotated) }
            for (member, place) in zip(members, tightest(memberSlots, current: current)) {
                slots[member] = (bin, place.rect, place.rotated)
            }
        }
        var pageSizes = [(width: Int, height: Int)](repeating: (1, 1), count: bins.count)
        let placements = slots.map { chosen in
            let (bin, slot, rotated) = chosen!
            let rect = PixelRect(x: slot.x, y: slot.y, width: slot.width - spacing, height: slot.height - spacing)
            pageSizes[bin] = (max(pageSizes[bin].width, rect.maxX), max(pageSizes[bin].height, rect.maxY))
            return Placement(page: bin, rect: rect, isRotated: rotated)
        }
        if powerOfTwoPages {
            pageSizes = pageSizes.map { (Self.powerOfTwo(atLeast: $0.width), Self.powerOfTwo(atLeast: $0.height)) }
        }
        return Packing(placements: placements, pageSizes: pageSizes)
    }

    /// The layout of `slots` (in packing order) in the bin width, among some tried, that gives
    /// the smallest page area; `current` if none beats it.
    private func tightest(
        _ slots: [(width: Int, height: Int)], current: [(rect: PixelRect, rotated: Bool)]
    ) -> [(rect: PixelRect, rotated: Bool)] {
        func area(_ layout: [(rect: PixelRect, rotated: Bool)]) -> Int {
            let width = layout.map(\.rect.maxX).max() ?? 0, height = layout.map(\.rect.maxY).max() ?? 0
            let size = (width - spacing, height - spacing)
            return powerOfTwoPages ? Self.powerOfTwo(atLeast: size.0) * Self.powerOfTwo(atLeast: size.1) : size.0 * size.1
        }
        let used = slots.reduce(0) { $0 + $1.width * $1.height }
        let currentArea = area(current)
        if Double(used) >= 0.9 * Double(max(currentArea, 1)) { return current }  // already tight
        let limit = maxPageSize + spacing
        let narrowest = slots.map { allowsRotation ? min($0.width, $0.height) : $0.width }.max() ?? 1
        let widest = current.map(\.rect.maxX).max() ?? limit
        var best = current, bestArea = currentArea
        let steps = 24
        for step in 0...steps {
            let width = narrowest + (widest - narrowest) * step / steps
            var bin = MaxRectsBin(width: width, height: limit)
            var layout: [(rect: PixelRect, rotated: Bool)] = []
            for slot in slots {
                guard let place = bin.bestPlace(width: slot.width, height: slot.height, allowRotation: allowsRotation) else { break }
                bin.place(place.rect)
                layout.append((place.rect, place.rotated))
            }
            if layout.count == slots.count, area(layout) < bestArea {
                best = layout
                bestArea = area(layout)
            }
        }
        return best
    }

    /// The smallest power of two at least `value` (1 for 0).
    static func powerOfTwo(atLeast value: Int) -> Int {
        var size = 1
        while size < value { size <<= 1 }
        return size
    }
}
