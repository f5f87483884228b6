import Preload

/// Packs sprite images into atlas pages with ``MaxRectsBin``: trimming, padding, extrusion,
/// rotation, spilling onto more pages when one is full, and shrinking each page to the smallest
/// size that holds its frames (optionally a power of two), as TexturePacker and libGDX do.
package enum AtlasPacker {
    /// One image to pack.
    package struct Sprite: Sendable {
        package var name: String
        /// Where it came from, for error messages.
        package var path: String
        package var texture: Texture

        package init(name: String, path: String, texture: Texture) {
            self.name = name
            self.path = path
            self.texture = texture
        }
    }

    /// Packed pages and the frames on them, in the sprites' order.
    package struct Result: Sendable {
        package var pages: [Texture]
        package var frames: [AtlasFrame]
        /// Sprite (trimmed) pixels over page pixels.
        package var occupancy: Double
    }

    package static func pack(
        _ sprites: [Sprite], options: AtlasPackingOptions = AtlasPackingOptions(), file: String,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }
    ) throws -> Result {
        let extrude = options.extrusion, padding = options.padding
        var boxes: [PixelRect] = []
        for sprite in sprites {
            guard sprite.texture.pixelFormat == .rgba8 else {
                throw AtlasError.unsupported(file: file, detail: "sprite '\(sprite.name)' is \(sprite.texture.pixelFormat), not RGBA8")
            }
            let box =
                options.trimsTransparentBorders
                ? SpriteImage.opaqueBounds(of: sprite.texture)
                : PixelRect(x: 0, y: 0, width: sprite.texture.width, height: sprite.texture.height)
            if box.width + 2 * extrude > options.maxPageSize || box.height + 2 * extrude > options.maxPageSize {
                throw AtlasError.spriteTooLarge(
                    file: sprite.path, sprite: sprite.name, width: box.width, height: box.height, pageLimit: options.maxPageSize)
            }
            boxes.append(box)
        }
        // Largest first: the long side, then the area, then the name, so the layout is stable.
        let order = sprites.indices.sorted { a, b in
            let (wa, ha, wb, hb) = (boxes[a].width, boxes[a].height, boxes[b].width, boxes[b].height)
            if max(wa, ha) != max(wb, hb) { return max(wa, ha) > max(wb, hb) }
            if wa * ha != wb * hb { return wa * ha > wb * hb }
            return sprites[a].name < sprites[b].name
        }
        // Each slot is the sprite plus extrusion plus padding to its right and below; a bin is
        // one padding larger than the page, so the last column's padding may hang off the edge.
        var bins: [MaxRectsBin] = []
        var placements = [(bin: Int, slot: PixelRect, rotated: Bool)?](repeating: nil, count: sprites.count)
        for (done, index) in order.enumerated() {
            if isCancelled() { throw CancellationError() }
            let width = boxes[index].width + 2 * extrude + padding, height = boxes[index].height + 2 * extrude + padding
            var chosen: (bin: Int, slot: PixelRect, rotated: Bool)?
            for bin in bins.indices {
                if let place = bins[bin].bestPlace(width: width, height: height, allowRotation: options.allowsRotation) {
                    chosen = (bin, place.rect, place.rotated)
                    break
                }
            }
            if chosen == nil {
                bins.append(MaxRectsBin(width: options.maxPageSize + padding, height: options.maxPageSize + padding))
                let place = bins[bins.count - 1].bestPlace(width: width, height: height, allowRotation: options.allowsRotation)!
                chosen = (bins.count - 1, place.rect, place.rotated)
            }
            bins[chosen!.bin].place(chosen!.slot)
            placements[index] = chosen
            progress(Double(done + 1) / Double(max(sprites.count, 1)) * 0.4)
        }
        // The greedy pass spreads a page's sprites over the whole bin; repack each page into the
        // smallest area it fits (the last page of a set is often half empty otherwise).
        for bin in bins.indices {
            if isCancelled() { throw CancellationError() }
            let members = order.filter { placements[$0]!.bin == bin }
            let slots = members.map { (boxes[$0].width + 2 * extrude + padding, boxes[$0].height + 2 * extrude + padding) }
            let current = members.map { (placements[$0]!.slot, placements[$0]!.rotated) }
            for (member, place) in zip(members, tightest(slots, current: current, options: options)) {
                placements[member] = (bin, place.rect, place.rotated)
            }
        }
        return try compose(
            sprites, boxes: boxes, placements: placements.map { $0! }, binCount: bins.count, options: options, isCancelled: isCancelled,
            progress: progress)
    }

    /// The layout of `slots` (in packing order) in the bin width, among some tried, that gives
    /// the smallest page area; `current` if none beats it.
    private static func tightest(
        _ slots: [(width: Int, height: Int)], current: [(rect: PixelRect, rotated: Bool)], options: AtlasPackingOptions
    ) -> [(rect: PixelRect, rotated: Bool)] {
        func area(_ layout: [(rect: PixelRect, rotated: Bool)]) -> Int {
            let width = layout.map(\.rect.maxX).max() ?? 0, height = layout.map(\.rect.maxY).max() ?? 0
            let size = (width - options.padding, height - options.padding)
            return options.powerOfTwoPages
                ? SpriteImage.powerOfTwo(atLeast: size.0) * SpriteImage.powerOfTwo(atLeast: size.1) : size.0 * size.1
        }
        let used = slots.reduce(0) { $0 + $1.width * $1.height }
        let currentArea = area(current)
        if Double(used) >= 0.9 * Double(max(currentArea, 1)) { return current }  // already tight
        let limit = options.maxPageSize + options.padding
        let narrowest = slots.map { options.allowsRotation ? min($0.width, $0.height) : $0.width }.max() ?? 1
        let widest = current.map(\.rect.maxX).max() ?? limit
        var best = current, bestArea = currentArea
        let steps = 24
        for step in 0...steps {
            let width = narrowest + (widest - narrowest) * step / steps
            var bin = MaxRectsBin(width: width, height: limit)
            var layout: [(rect: PixelRect, rotated: Bool)] = []
            for slot in slots {
                guard let place = bin.bestPlace(width: slot.width, height: slot.height, allowRotation: options.allowsRotation) else { break }
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

    private static func compose(
        _ sprites: [Sprite], boxes: [PixelRect], placements: [(bin: Int, slot: PixelRect, rotated: Bool)], binCount: Int,
        options: AtlasPackingOptions, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> Result {
        let extrude = options.extrusion, padding = options.padding
        var sizes = [(width: Int, height: Int)](repeating: (1, 1), count: binCount)
        for placement in placements {
            sizes[placement.bin].width = max(sizes[placement.bin].width, placement.slot.maxX - padding)
            sizes[placement.bin].height = max(sizes[placement.bin].height, placement.slot.maxY - padding)
        }
        if options.powerOfTwoPages {
            sizes = sizes.map { (SpriteImage.powerOfTwo(atLeast: $0.width), SpriteImage.powerOfTwo(atLeast: $0.height)) }
        }
        var canvases = sizes.map { SpriteImage.Canvas(width: $0.width, height: $0.height) }
        var frames: [AtlasFrame] = []
        var spritePixels = 0
        for (index, sprite) in sprites.enumerated() {
            if isCancelled() { throw CancellationError() }
            let (bin, slot, rotated) = placements[index]
            let box = boxes[index]
            let at = (x: slot.x + extrude, y: slot.y + extrude)
            canvases[bin].draw(sprite.texture, from: box, at: at, rotated: rotated, extrusion: extrude)
            frames.append(
                AtlasFrame(
                    name: sprite.name, page: bin,
                    rect: PixelRect(x: at.x, y: at.y, width: rotated ? box.height : box.width, height: rotated ? box.width : box.height),
                    rotation: rotated ? .clockwise : .none, offsetX: box.x, offsetY: box.y,
                    sourceWidth: sprite.texture.width, sourceHeight: sprite.texture.height))
            spritePixels += box.width * box.height
            progress(0.6 + Double(index + 1) / Double(max(sprites.count, 1)) * 0.4)
        }
        let pages = canvases.map { $0.texture() }
        let pagePixels = pages.reduce(0) { $0 + $1.width * $1.height }
        return Result(pages: pages, frames: frames, occupancy: Double(spritePixels) / Double(max(pagePixels, 1)))
    }
}
