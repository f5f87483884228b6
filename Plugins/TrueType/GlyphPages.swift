import Preload
import PreloadAtlas

/// Rasterized glyphs packed onto RGBA8 pages in pooled memory by `RectanglePacker`: as few and
/// as square pages as fit them, every page the same size (the smallest that holds the fullest),
/// white with each glyph's coverage as alpha, or premultiplied (coverage in all four channels). A
/// glyph's rectangle is its bitmap with the padding around it; glyphs without pixels (a space)
/// take no room.
struct GlyphPages {
    /// The pages, in order.
    var textures: [Texture] = []
    /// Each glyph's rectangle, in the glyphs' order: page, left, top, width, height (all 0 for a
    /// glyph without pixels).
    var rectangles: [(page: Int, x: Int, y: Int, width: Int, height: Int)]
    /// Every page's size.
    var width = 0, height = 0

    /// Packs `glyphs` (whose coverage rows are in `coverage`) and draws the pages.
    init(
        _ glyphs: [RasterizedGlyph], coverage: [UInt8], options: TrueTypeFontLoaderSettings, memory: AssetMemory, isCancelled: () -> Bool,
        progress: (Double) -> Void
    ) throws {
        let padding = options.padding
        let packed = glyphs.indices.filter { glyphs[$0].width > 0 && glyphs[$0].height > 0 }
        let packing = try Self.pack(
            packed.map { (glyphs[$0].width + 2 * padding, glyphs[$0].height + 2 * padding) }, options: options, isCancelled: isCancelled,
            progress: { progress($0 * 0.5) })
        rectangles = Array(repeating: (0, 0, 0, 0, 0), count: glyphs.count)
        for (index, placement) in zip(packed, packing.placements) {
            rectangles[index] = (placement.page, placement.rect.x, placement.rect.y, placement.rect.width, placement.rect.height)
        }
        guard !packing.pageSizes.isEmpty else { return }
        width = packing.pageSizes.map(\.width).max()!
        height = packing.pageSizes.map(\.height).max()!
        let pageBytes = width * height * 4
        let (total, overflow) = pageBytes.multipliedReportingOverflow(by: packing.pageSizes.count)
        guard !overflow, total <= options.maxPageBytes else {
            throw TrueTypeFontError.limitExceeded(
                "the glyphs need \(packing.pageSizes.count) pages of \(width)x\(height) pixels, more than the \(options.maxPageBytes) bytes "
                    + "TrueTypeFontLoaderSettings.maxPageBytes allows")
        }
        var members = [[Int]](repeating: [], count: packing.pageSizes.count)
        for index in packed { members[rectangles[index].page].append(index) }
        let premultiplied = options.alphaMode == .premultiplied
        for (page, indices) in members.enumerated() {
            if isCancelled() { throw CancellationError() }
            let pixels = AssetBytes(unsafeUninitializedCapacity: pageBytes, memory: memory) { buffer, count in
                // Straight: white, transparent (so filtering at a glyph's edge stays white); premultiplied: zero.
                buffer.initializeMemory(as: UInt32.self, repeating: premultiplied ? 0 : UInt32(littleEndian: 0x00FF_FFFF))
                let bytes = buffer.bindMemory(to: UInt8.self)
                for index in indices {
                    let glyph = glyphs[index], place = rectangles[index]
                    for row in 0..<glyph.height {
                        var pixel = ((place.y + padding + row) * width + place.x + padding) * 4
                        for column in 0..<glyph.width {
                            let alpha = coverage[glyph.offset + row * glyph.width + column]
                            if premultiplied {
                                bytes[pixel] = alpha
                                bytes[pixel + 1] = alpha
                                bytes[pixel + 2] = alpha
                            }
                            bytes[pixel + 3] = alpha
                            pixel += 4
                        }
                    }
                }
                count = pageBytes
            }
            textures.append(
                Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: options.alphaMode, pixels: pixels))
            progress(0.5 + Double(page + 1) / Double(members.count) * 0.5)
        }
    }

    /// `slots` packed into a square bin with a tenth more room than their area (and spacing) takes,
    /// grown by an eighth until they fit on one page (four times at most), else onto pages of the
    /// largest side: the greedy layout, cut to its bounds, without the atlas's search for the
    /// least area (which makes tall strips of glyphs, at 25 times the work).
    private static func pack(
        _ slots: [(width: Int, height: Int)], options: TrueTypeFontLoaderSettings, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> RectanglePacker.Packing {
        let spacing = options.spacing
        let area = slots.reduce(0) { $0 + ($1.width + spacing) * ($1.height + spacing) }
        var side = max(slots.map { max($0.width, $0.height) }.max() ?? 1, Int((Double(area) * 1.1).squareRoot().rounded(.up)))
        var attempts = 1
        while true {
            let last = side >= options.maxPageSize || attempts == 5
            let packer = RectanglePacker(maxPageSize: last ? options.maxPageSize : side, spacing: spacing, shrinksPages: false)
            let packing = try packer.pack(slots, isCancelled: isCancelled, progress: progress)
            if last || packing.pageSizes.count <= 1 { return packing }
            side += side / 8 + 1
            attempts += 1
        }
    }
}
