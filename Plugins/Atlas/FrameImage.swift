import Preload

extension TextureAtlas {
    /// `frame` as its own upright RGBA8 image of its original size: rotation undone, trimmed
    /// margins transparent (0, 0, 0, 0). For a frame packed from a sprite file this equals the
    /// decoded sprite, pixel for pixel.
    public func image(of frame: AtlasFrame) throws -> Texture {
        // The frame may come from anyone (the initializer is public): check it as loading does.
        guard pages.indices.contains(frame.page) else {
            throw AtlasError.unknownPage(file: "", frame: frame.name, page: "index \(frame.page)")
        }
        let page = pages[frame.page].texture
        guard frame.rect.isInside(width: page.width, height: page.height) else {
            throw AtlasError.frameOutsidePage(
                file: "", frame: frame.name, rect: frame.rect, page: pages[frame.page].path, pageWidth: page.width, pageHeight: page.height)
        }
        if let detail = frame.sizeProblem { throw AtlasError.malformed(file: "", detail: detail) }
        guard page.pixelFormat == .rgba8 else {
            throw AtlasError.unsupported(file: pages[frame.page].path, detail: "frame images need RGBA8 pages, not \(page.pixelFormat)")
        }
        let width = frame.sourceWidth, height = frame.sourceHeight
        let pageWidth = page.width
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            output.initialize(repeating: 0)
            page.pixels.withUnsafeBufferPointer { source in
                // Only the part of the content that lands inside the original image.
                let firstX = max(0, -frame.offsetX), lastX = min(frame.contentWidth, width - frame.offsetX)
                let firstY = max(0, -frame.offsetY), lastY = min(frame.contentHeight, height - frame.offsetY)
                guard firstX < lastX, firstY < lastY else { return }
                for y in firstY..<lastY {
                    let target = ((frame.offsetY + y) * width + frame.offsetX) * 4
                    if frame.rotation == .none {
                        let start = ((frame.rect.y + y) * pageWidth + frame.rect.x + firstX) * 4
                        let bytes = (lastX - firstX) * 4
                        (output.baseAddress! + target + firstX * 4).update(from: source.baseAddress! + start, count: bytes)
                        continue
                    }
                    for x in firstX..<lastX {
                        let point = frame.pagePoint(contentX: x, contentY: y)
                        let from = (point.y * pageWidth + point.x) * 4
                        let to = target + x * 4
                        output[to] = source[from]
                        output[to + 1] = source[from + 1]
                        output[to + 2] = source[from + 2]
                        output[to + 3] = source[from + 3]
                    }
                }
            }
            count = width * height * 4
        }
        return Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: page.alphaMode, pixels: pixels)
    }
}
