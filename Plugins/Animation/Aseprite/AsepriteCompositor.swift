import Preload

/// Composites an ``AsepriteDocument``'s frames as Aseprite's export does: visible image layers
/// bottom to top (reordered by each cel's z-index), each cel at its position, clipped to the
/// canvas, blended in its layer's mode with the cel's opacity times its layer's, in Aseprite's
/// integer arithmetic (``AsepriteBlending``, ``AsepriteBlendModes``).
struct AsepriteCompositor {
    let document: AsepriteDocument
    /// Whether each layer is shown: it and every group it is in are visible, and it is not a
    /// reference layer.
    let shown: [Bool]

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
        for (index, layer) in document.layers.enumerated() where shown[index] {
            if layer.type == 2 {
                throw AsepriteError.unsupported(detail: "layer '\(layer.name)' is a tilemap layer (tilemap layers are not composited yet)")
            }
            if layer.type == 0, !AsepriteBlendModes.isSupported(layer.blendMode, depth: document.depth) {
                throw AsepriteError.unsupported(
                    detail:
                        "layer '\(layer.name)' blends in \(AsepriteBlending.modeName(layer.blendMode)) mode (hue, saturation, color and luminosity are not composited yet)"
                )
            }
        }
    }

    /// The groups whose own opacity or blend mode would apply, which this compositor leaves out.
    var groupsBlendedApart: [String] {
        guard document.groupBlendingApplies else { return [] }
        return document.layers.enumerated().filter { index, layer in
            shown[index] && layer.type == 1 && (layer.opacity != 255 || layer.blendMode != 0)
        }.map { "'\($0.element.name)'" }
    }

    /// Frame `index` composited: `width * height` RGBA8 pixels, straight alpha.
    func frame(_ index: Int) throws -> [UInt8] {
        let frame = document.frames[index]
        var canvas = [UInt8](repeating: 0, count: document.width * document.height * 4)
        let cels = frame.cels.filter { shown[$0.layer] && document.layers[$0.layer].type == 0 }
        let ordered = cels.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            let (orderA, orderB) = (a.layer + a.zIndex, b.layer + b.zIndex)
            if orderA != orderB { return orderA < orderB }
            if a.zIndex != b.zIndex { return a.zIndex < b.zIndex }
            return left.offset < right.offset
        }.map { $0.element }
        for cel in ordered {
            let source = try resolve(cel, frame: index)
            guard case .image(let width, let height, let pixels) = source.content else { continue }
            let layer = document.layers[cel.layer]
            let opacity = AsepriteBlending.multiply(source.opacity, document.layerOpacityIsValid ? layer.opacity : 255)
            draw(
                pixels, width: width, height: height, at: (source.x, source.y), opacity: opacity, mode: layer.blendMode,
                background: layer.isBackground,
                palette: frame.palette, onto: &canvas)
        }
        return canvas
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

    /// Blends a cel's pixels onto `canvas` at `origin`, clipped to the canvas.
    private func draw(
        _ pixels: [UInt8], width: Int, height: Int, at origin: (x: Int, y: Int), opacity: Int, mode: Int, background: Bool, palette: [UInt8],
        onto canvas: inout [UInt8]
    ) {
        let canvasWidth = document.width, depth = document.depth
        if mode == 0, depth == .rgba {
            return AsepriteNormalBlit.draw(
                pixels, width: width, height: height, at: origin, opacity: opacity, onto: &canvas, canvasWidth: canvasWidth,
                canvasHeight: document.height)
        }
        let transparent = depth == .indexed && !background ? document.transparentIndex : -1
        let left = max(0, -origin.x), right = min(width, canvasWidth - origin.x)
        let top = max(0, -origin.y), bottom = min(height, document.height - origin.y)
        guard left < right, top < bottom else { return }
        for row in top..<bottom {
            for column in left..<right {
                let at = (row * width + column) * depth.bytesPerPixel
                let color: (r: Int, g: Int, b: Int, a: Int)
                switch depth {
                case .rgba: color = (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]), Int(pixels[at + 3]))
                case .grayscale: color = (Int(pixels[at]), Int(pixels[at]), Int(pixels[at]), Int(pixels[at + 1]))
                case .indexed:
                    let entry = Int(pixels[at])
                    if entry == transparent { continue }
                    color = (Int(palette[entry * 4]), Int(palette[entry * 4 + 1]), Int(palette[entry * 4 + 2]), Int(palette[entry * 4 + 3]))
                }
                let target = ((origin.y + row) * canvasWidth + origin.x + column) * 4
                if mode == 0 {
                    AsepriteBlending.normal(source: color, opacity: opacity, onto: &canvas, at: target)
                } else {
                    AsepriteBlendModes.blend(mode, source: color, opacity: opacity, onto: &canvas, at: target)
                }
            }
        }
    }
}
