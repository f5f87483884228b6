import Preload

/// Packs sprite images into atlas pages: trimming, padding and extrusion here, then
/// ``RectanglePacker`` (rotation, spilling onto more pages when one is full, shrinking each page
/// to the smallest size that holds its frames, optionally a power of two), as TexturePacker and
/// libGDX do.
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
        _ sprites: [Sprite], options: AtlasLoaderSettings = AtlasLoaderSettings(), file: String,
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
        // Largest first: the long side, then the area, then the name, so the layout is stable
        // (the packer keeps this order for equal sizes).
        let order = sprites.indices.sorted { a, b in
            let (wa, ha, wb, hb) = (boxes[a].width, boxes[a].height, boxes[b].width, boxes[b].height)
            if max(wa, ha) != max(wb, hb) { return max(wa, ha) > max(wb, hb) }
            if wa * ha != wb * hb { return wa * ha > wb * hb }
            return sprites[a].name < sprites[b].name
        }
        let packer = RectanglePacker(
            maxPageSize: options.maxPageSize, spacing: padding, allowsRotation: options.allowsRotation,
            powerOfTwoPages: options.powerOfTwoPages)
        let packing = try packer.pack(
            order.map { (boxes[$0].width + 2 * extrude, boxes[$0].height + 2 * extrude) }, isCancelled: isCancelled,
            progress: { progress($0 * 0.4) })
        var placements = packing.placements
        for (position, index) in order.enumerated() { placements[index] = packing.placements[position] }
        return try compose(
            sprites, boxes: boxes, placements: placements, pageSizes: packing.pageSizes, options: options, isCancelled: isCancelled,
            progress: progress)
    }

    private static func compose(
        _ sprites: [Sprite], boxes: [PixelRect], placements: [RectanglePacker.Placement], pageSizes: [(width: Int, height: Int)],
        options: AtlasLoaderSettings, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> Result {
        let extrude = options.extrusion
        var canvases = pageSizes.map { SpriteImage.Canvas(width: $0.width, height: $0.height) }
        var frames: [AtlasFrame] = []
        var spritePixels = 0
        for (index, sprite) in sprites.enumerated() {
            if isCancelled() { throw CancellationError() }
            let (bin, slot, rotated) = (placements[index].page, placements[index].rect, placements[index].isRotated)
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
