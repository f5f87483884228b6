import Preload
import PreloadAtlas

/// Composites an ``AsepriteDocument``'s frames as Aseprite's sprite sheet export does (its
/// `render::Render` with the new blend method and groups not composed, into a sheet of RGB
/// pixels, or of palette indexes for an indexed sprite with one palette):
///
/// - the visible image and tilemap layers, a group's layers in its place (a group's own opacity
///   and blend mode are not applied: only Aseprite's editor composes groups, with its
///   experimental option), reordered by each cel's z-index, the background layer first;
/// - each cel at its position, clipped to the canvas, its opacity times its layer's (when
///   header flag 1 says layers' opacity is valid; a background layer's is always full), blended
///   in its layer's mode (a background layer's is always normal) in Aseprite's integer
///   arithmetic (``AsepriteBlending``, ``AsepriteBlendModes``, ``AsepriteHSLBlending``); an
///   indexed sprite's transparent index shows nothing, on every layer;
/// - a tilemap cel as its tileset's tiles, each at its grid cell with its flips;
/// - an indexed sprite with one palette by index (``AsepriteIndexedFrame``): each layer's
///   pixels that are not the transparent index replace what is under them, whatever the
///   opacity and blend mode, as the export's indexed sheet does.
final class AsepriteCompositor {
    let document: AsepriteDocument
    /// Whether each layer is shown: it and every group it is in are visible, and it is not a
    /// reference layer.
    let shown: [Bool]
    /// Whether frames composite by palette index: an indexed sprite whose palette is the same in
    /// every frame (Aseprite's export then renders into an indexed sheet).
    let byIndex: Bool

    init(_ document: AsepriteDocument) throws {
        self.document = document
        var shown = [Bool](), parents = [Int]()  // parents: the open group at each child level
        for layer in document.layers {
            let level = min(layer.childLevel, parents.count)
            parents.removeSubrange(level...)
            let parentShown = parents.last.map { shown[$0] } ?? true
            shown.append(parentShown && layer.isVisible && !layer.isReference)
            if layer.type == 1 { parents.append(shown.count - 1) }
        }
        self.shown = shown
        let first = document.frames[0]
        byIndex =
            document.depth == .indexed
            && document.frames.allSatisfy {
                $0.paletteCount == first.paletteCount
                    && $0.palette.prefix(min($0.paletteCount, 256) * 4) == first.palette.prefix(min(first.paletteCount, 256) * 4)
            }
        for (index, layer) in document.layers.enumerated() where shown[index] && layer.hasCels {
            if !layer.isBackground, !AsepriteBlendModes.isDefined(layer.blendMode) {
                throw AsepriteError.malformed(detail: "layer '\(layer.name)' blends in \(AsepriteBlending.modeName(layer.blendMode))")
            }
            if layer.type == 2 { _ = try tileset(of: layer) }
        }
    }

    /// The tiles of tilemap layer `layer`, or why there are none to draw.
    func tileset(of layer: AsepriteDocument.Layer) throws -> (tileset: AsepriteDocument.Tileset, pixels: [UInt8]) {
        guard let tileset = document.tilesets[layer.tileset] else {
            throw AsepriteError.malformed(detail: "tilemap layer '\(layer.name)' uses tileset \(layer.tileset), which the file does not have")
        }
        guard let pixels = tileset.pixels else {
            throw AsepriteError.unsupported(
                detail: "tilemap layer '\(layer.name)' uses tileset '\(tileset.name)', whose tiles are in an external file (not read)")
        }
        guard tileset.zeroIsEmpty else {
            throw AsepriteError.unsupported(
                detail:
                    "tileset '\(tileset.name)' marks its empty tile with all bits set (tileset flag 4 unset, from internal versions of Aseprite)")
        }
        return (tileset, pixels)
    }

    /// The groups whose own opacity or blend mode Aseprite's editor applies when it composes
    /// groups (header flag 2), which its export and this compositor do not.
    var groupsComposedInTheEditor: [String] {
        guard document.groupBlendingApplies else { return [] }
        return document.layers.enumerated().filter { index, layer in
            shown[index] && layer.type == 1 && ((document.layerOpacityIsValid && layer.opacity != 255) || layer.blendMode != 0)
        }.map { "'\($0.element.name)'" }
    }

    /// Frame `index` composited on `canvas` (`width * height` RGBA8 pixels, straight alpha,
    /// transparent: the one canvas every frame draws on in turn) and trimmed to its pixels with
    /// alpha, the trimmed rows copied out; `canvas` is transparent again after. Only the cels'
    /// rectangles are drawn, scanned for the trim and cleared, not the whole canvas.
    func trim(_ index: Int, on canvas: inout [UInt8]) throws -> FramePacking.Trim {
        let cels = try plan(index)
        let (width, height) = (document.width, document.height)
        if byIndex {
            return FramePacking.trim(try AsepriteIndexedFrame(compositor: self, frame: index).composite(cels), width: width, height: height)
        }
        let drawn = try draw(cels, frame: index, onto: &canvas)
        let trim = FramePacking.trim(canvas, width: width, height: height, within: drawn)
        canvas.withUnsafeMutableBytes { raw in
            for row in drawn.y..<drawn.y + drawn.height {
                let from = (row * width + drawn.x) * 4
                UnsafeMutableRawBufferPointer(rebasing: raw[from..<from + drawn.width * 4]).initializeMemory(as: UInt8.self, repeating: 0)
            }
        }
        return trim
    }

    /// Draws `cels` (frame `index`'s plan) onto the transparent RGBA `canvas`, and gives the
    /// rectangle they drew in (the whole canvas when the frame is filled first).
    private func draw(_ cels: [AsepriteDocument.Cel], frame index: Int, onto canvas: inout [UInt8]) throws -> PixelRect {
        let frame = document.frames[index]
        var drawn = (left: document.width, top: document.height, right: 0, bottom: 0)
        let transparent = document.transparentIndex
        if document.depth == .indexed, let bottom = document.layers.first, bottom.isBackground, bottom.isVisible, transparent < 256 {
            // Aseprite fills an RGB frame of an indexed sprite with a visible background layer
            // with the transparent index's colour before drawing.
            let color = Array(frame.palette[transparent * 4..<transparent * 4 + 4])
            for at in stride(from: 0, to: canvas.count, by: 4) { canvas.replaceSubrange(at..<at + 4, with: color) }
            drawn = (0, 0, document.width, document.height)
        }
        for cel in cels {
            let layer = document.layers[cel.layer]
            let opacity =
                layer.isBackground ? cel.opacity : AsepriteBlending.multiply(cel.opacity, document.layerOpacityIsValid ? layer.opacity : 255)
            let mode = layer.isBackground ? 0 : layer.blendMode
            try forEachImage(of: cel, layer: layer) { pixels, base, width, height, origin, flips in
                let (left, top) = (max(0, origin.x), max(0, origin.y))
                let (right, bottom) = (min(document.width, origin.x + width), min(document.height, origin.y + height))
                guard left < right, top < bottom else { return }
                // Outside the rectangle drawn so far the canvas is all zeros (cleared after each frame).
                let ontoZeros = left >= drawn.right || right <= drawn.left || top >= drawn.bottom || bottom <= drawn.top
                drawn = (min(drawn.left, left), min(drawn.top, top), max(drawn.right, right), max(drawn.bottom, bottom))
                draw(
                    pixels, base: base, width: width, height: height, at: origin, flips: flips, opacity: opacity, mode: mode, palette: frame.palette,
                    onto: &canvas, ontoZeros: ontoZeros)
            }
        }
        guard drawn.left < drawn.right else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: drawn.left, y: drawn.top, width: drawn.right - drawn.left, height: drawn.bottom - drawn.top)
    }

    /// Frame `index`'s cels to draw, in Aseprite's order: by layer plus z-index (then by
    /// z-index), shown layers only, the background layer's first; linked cels resolved to the
    /// image they show (with their own z-index).
    func plan(_ index: Int) throws -> [AsepriteDocument.Cel] {
        // Sorted by their numbers, each cel copied once (a cel's copy retains its pixels).
        let cels = document.frames[index].cels, layers = document.layers
        var order = cels.indices.filter { layers[cels[$0].layer].hasCels && shown[cels[$0].layer] }
        order.sort { a, b in
            let (orderA, orderB) = (cels[a].layer + cels[a].zIndex, cels[b].layer + cels[b].zIndex)
            if orderA != orderB { return orderA < orderB }
            if cels[a].zIndex != cels[b].zIndex { return cels[a].zIndex < cels[b].zIndex }
            return a < b
        }
        let background = order.filter { layers[cels[$0].layer].isBackground }
        return try (background + order.filter { !layers[cels[$0].layer].isBackground }).map { try resolve(cels[$0], frame: index) }
    }

    /// Calls `body` with each image cel `cel` draws: its own, or each tile of its tilemap at
    /// its cell (pixels, the image's first pixel in them, its size, where it goes, its flips).
    func forEachImage(
        of cel: AsepriteDocument.Cel, layer: AsepriteDocument.Layer,
        _ body: (_ pixels: [UInt8], _ base: Int, _ width: Int, _ height: Int, _ origin: (x: Int, y: Int), _ flips: AsepriteTiles.Flips) throws -> Void
    ) throws {
        switch cel.content {
        case .image(let width, let height, let pixels): try body(pixels, 0, width, height, (cel.x, cel.y), [])
        case .linked: break
        case .tilemap(let width, let height, let ids, let flips):
            let (tileset, pixels) = try tileset(of: layer)
            let (tileWidth, tileHeight) = (tileset.tileWidth, tileset.tileHeight)
            let tilePixels = tileWidth * tileHeight
            // Only cells on the canvas: a tile's pixels are looked at only where they land.
            let columns = Self.cells(count: width, size: tileWidth, from: cel.x, canvas: document.width)
            let rows = Self.cells(count: height, size: tileHeight, from: cel.y, canvas: document.height)
            for row in rows {
                for column in columns {
                    let (id, flip) = (Int(ids[row * width + column]), flips[row * width + column])
                    if id == 0 && flip == 0 { continue }  // no tile
                    guard id < tileset.count else {
                        throw AsepriteError.malformed(
                            detail:
                                "layer '\(layer.name)''s tilemap has tile \(id) at column \(column + 1), row \(row + 1), outside tileset '\(tileset.name)''s \(tileset.count) tiles"
                        )
                    }
                    try body(
                        pixels, id * tilePixels, tileWidth, tileHeight, (cel.x + column * tileWidth, cel.y + row * tileHeight),
                        AsepriteTiles.Flips(rawValue: flip))
                }
            }
        }
    }

    /// Which of `count` cells of `size` pixels, the first at `origin`, land on a canvas
    /// `canvas` pixels long (none when the row of cells ends before it or starts after it).
    static func cells(count: Int, size: Int, from origin: Int, canvas: Int) -> Range<Int> {
        let end = min(count, max(0, (canvas - origin + size - 1) / size))
        return min(max(0, -origin / size), end)..<end
    }

    /// The cel whose image `cel` shows: itself, or the cel on its layer in the frame it links to
    /// (whose position and opacity a linked cel shares, as Aseprite shares them).
    private func resolve(_ cel: AsepriteDocument.Cel, frame: Int) throws -> AsepriteDocument.Cel {
        var current = cel
        for _ in 0...document.frames.count {
            guard case .linked(let target) = current.content else { return current }
            guard let linked = document.frames[target].cels.first(where: { $0.layer == cel.layer }) else {
                throw AsepriteError.malformed(
                    detail:
                        "frame \(frame + 1)'s cel on layer '\(document.layers[cel.layer].name)' links to frame \(target + 1), which has no cel there")
            }
            current = linked
        }
        throw AsepriteError.malformed(detail: "frame \(frame + 1)'s cel on layer '\(document.layers[cel.layer].name)' links in a circle")
    }

    /// Calls `body` for each canvas pixel a `width`x`height` image at `origin` drawn with `flips`
    /// covers, clipped to the canvas: the image's pixel to show there (nil where Aseprite clears
    /// the canvas) and the canvas pixel, both as pixel numbers.
    @inline(__always) func place(
        width: Int, height: Int, at origin: (x: Int, y: Int), flips: AsepriteTiles.Flips, _ body: (_ source: Int?, _ target: Int) -> Void
    ) {
        let left = max(0, -origin.x), right = min(width, document.width - origin.x)
        let top = max(0, -origin.y), bottom = min(height, document.height - origin.y)
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            let target = (origin.y + row) * document.width + origin.x
            if flips.isEmpty {
                for column in left..<right { body(row * width + column, target + column) }
            } else {
                for column in left..<right {
                    let source = AsepriteTiles.source(x: column, y: row, width: width, height: height, flips: flips)
                    body(source.map { $0.y * width + $0.x }, target + column)
                }
            }
        }
    }

    /// Blends an image's pixels (from pixel `base` of `pixels`) onto the RGBA `canvas` (all zero
    /// bytes where it lands when `ontoZeros`).
    private func draw(
        _ pixels: [UInt8], base: Int, width: Int, height: Int, at origin: (x: Int, y: Int), flips: AsepriteTiles.Flips, opacity: Int,
        mode: Int, palette: [UInt8], onto canvas: inout [UInt8], ontoZeros: Bool
    ) {
        let depth = document.depth, mask = document.transparentIndex
        if mode == 0, depth == .rgba, flips.isEmpty {
            return AsepriteNormalBlit.draw(
                pixels, base: base, width: width, height: height, at: origin, opacity: opacity, mask: mask, onto: &canvas,
                canvasWidth: document.width, canvasHeight: document.height, ontoZeros: ontoZeros)
        }
        place(width: width, height: height, at: origin, flips: flips) { source, target in
            let to = target * 4
            guard let source else { return canvas.replaceSubrange(to..<to + 4, with: [0, 0, 0, 0]) }
            let at = (base + source) * depth.bytesPerPixel
            let color: AsepriteBlending.Pixel
            switch depth {
            case .rgba:
                // The image's mask colour (the header's transparent index as an RGBA value) is skipped.
                if pixels[at + 3] == 0, pixels[at + 2] == 0, pixels[at + 1] == 0, Int(pixels[at]) == mask { return }
                color = (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]), Int(pixels[at + 3]))
            case .grayscale:
                if pixels[at + 1] == 0, Int(pixels[at]) == mask { return }
                color = (Int(pixels[at]), Int(pixels[at]), Int(pixels[at]), Int(pixels[at + 1]))
            case .indexed:
                let entry = Int(pixels[at])
                if entry == mask { return }
                color = (Int(palette[entry * 4]), Int(palette[entry * 4 + 1]), Int(palette[entry * 4 + 2]), Int(palette[entry * 4 + 3]))
            }
            if mode == 0 {
                AsepriteBlending.normal(source: color, opacity: opacity, onto: &canvas, at: to)
            } else {
                AsepriteBlendModes.blend(mode, source: color, opacity: opacity, onto: &canvas, at: to)
            }
        }
    }
}
