import CSDL2
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadFont
import PreloadPack
import PreloadTileMap

/// The render thread's side: SDL textures made from what Preload hands over. Lives on the main
/// thread only; handles given back to Preload are indexes into its tables (plain `Int`s, so
/// they are `Sendable`), never SDL pointers.
final class GPU {
    /// An uploaded atlas: its pages' textures and its frames.
    struct Atlas {
        var pages: [OpaquePointer]
        var frames: [String: AtlasFrame]
    }

    /// What an uploaded pack holds: its textures and atlases by entry name.
    struct Pack {
        var textures: [String: OpaquePointer] = [:]
        var atlases: [String: Atlas] = [:]
    }

    /// An uploaded bitmap font: its pages' textures, and the font without its pages' pixels
    /// (its glyphs and kerning, which lay text out).
    struct Font {
        var pages: [OpaquePointer]
        var glyphs: BitmapFont
    }

    /// An uploaded Tiled map: its images' textures by path, and every tile its tile layers place,
    /// resolved (image, rectangle, flips), in drawing order.
    struct Map {
        struct Tile {
            var column: Int
            var row: Int
            var image: String
            var rect: TileRect
            var flips: TileFlips
        }

        var images: [String: OpaquePointer]
        var tiles: [Tile]
        var tileWidth: Int
        var tileHeight: Int
        /// Its size in pixels.
        var width: Int
        var height: Int
    }

    /// An uploaded animation: its pages' textures, and the animation without its pages' pixels
    /// (its frames, durations and tags, which say what to show when).
    struct Animation {
        var pages: [OpaquePointer]
        var timing: SpriteAnimation
    }

    let renderer: OpaquePointer
    private(set) var textures: [OpaquePointer] = []
    private(set) var atlases: [Atlas] = []
    private(set) var packs: [Pack] = []
    private(set) var fonts: [Font] = []
    private(set) var maps: [Map] = []
    private(set) var animations: [Animation] = []
    /// Bytes of pixels given to the driver so far: a compressed texture's blocks (every level), a
    /// decoded one's RGBA8.
    private(set) var uploadedBytes = 0
    /// The progress units of the items handed over so far (`AssetHandOff.Item.progressWeight`:
    /// the batch's progress counts these). An item without textures (a sound, data) is ready for
    /// use once handed over; one with textures, once the last of their rows is on the GPU
    /// (`strips.pendingWeight` is what is not yet).
    private(set) var handedOverWeight: Int64 = 0
    /// Which way each texture went.
    private(set) var uploadPaths = UploadPaths()
    /// Large textures still being filled, a band of rows per step.
    private(set) var strips = StripUploads()

    /// Compressed uploads through OpenGL, when the renderer is SDL's OpenGL one.
    let glUploads: GLCompressedUploads?
    /// Decodes compressed textures that OpenGL cannot take.
    private let cpuDecoding = CPUBlockDecoding()

    init(renderer: OpaquePointer) {
        self.renderer = renderer
        glUploads = GLCompressedUploads(renderer: renderer)
    }

    /// Uploads `item`'s asset and returns its handle (an index into the table of its kind), and
    /// counts the item's weight: on the GPU once its textures are.
    func upload(_ item: AssetHandOff.Item) -> Int? {
        strips.beginItem()
        defer {
            strips.endItem(weight: item.progressWeight)
            handedOverWeight += item.progressWeight
        }
        return upload(item.asset)
    }

    /// Uploads `asset` and returns its handle: an index into the table of its kind.
    private func upload(_ asset: any Asset) -> Int? {
        switch asset {
        case let texture as Texture: return Self.add(make(texture), to: &textures)
        case let atlas as TextureAtlas: return Self.add(upload(atlas), to: &atlases)
        case let pack as PackAsset:
            var uploaded = Pack()
            for entry in pack.entries {
                switch entry.asset {
                case let texture as Texture: uploaded.textures[entry.name] = make(texture)
                case let atlas as TextureAtlas: uploaded.atlases[entry.name] = upload(atlas)
                default: continue
                }
            }
            return Self.add(uploaded, to: &packs)
        case let font as BitmapFont: return Self.add(upload(font), to: &fonts)
        case let map as TileMap: return Self.add(upload(map), to: &maps)
        case let animation as SpriteAnimation:
            let timing = SpriteAnimation(
                width: animation.width, height: animation.height, pages: [], frames: animation.frames, tags: animation.tags,
                loopCount: animation.loopCount)
            return Self.add(Animation(pages: animation.pages.map { make($0) }, timing: timing), to: &animations)
        default: return nil
        }
    }

    /// Appends `uploaded` to `table` and returns its index there: its handle.
    private static func add<Uploaded>(_ uploaded: Uploaded, to table: inout [Uploaded]) -> Int {
        table.append(uploaded)
        return table.count - 1
    }

    private func upload(_ atlas: TextureAtlas) -> Atlas {
        Atlas(pages: atlas.pages.map { make($0.texture) }, frames: Dictionary(atlas.frames.map { ($0.name, $0) }) { first, _ in first })
    }

    private func upload(_ font: BitmapFont) -> Font {
        let glyphs = BitmapFont(
            format: font.format, metrics: font.metrics, pages: [], glyphs: font.glyphs, missingGlyph: font.missingGlyph,
            kerningPairs: font.kerningPairs)
        return Font(pages: font.pages.map { make($0.texture) }, glyphs: glyphs)
    }

    /// Every image of `map` made a texture, and every tile of its visible tile layers resolved
    /// (layers' opacity, offsets and tints, which the sample map does not use, are left out).
    private func upload(_ map: TileMap) -> Map {
        var images: [String: OpaquePointer] = [:]
        for image in map.images {
            images[image.path] = make(required(image.texture, "texture of \(image.path) in a loaded map"))
        }
        var tiles: [Map.Tile] = []
        for layer in map.allLayers where layer.isVisible {
            for placed in layer.tiles?.placedTiles ?? [] {
                guard let tile = map.tile(for: placed.tile) else { continue }
                tiles.append(Map.Tile(column: placed.column, row: placed.row, image: tile.image.path, rect: tile.rect, flips: tile.flips))
            }
        }
        return Map(
            images: images, tiles: tiles, tileWidth: map.tileWidth, tileHeight: map.tileHeight, width: map.width * map.tileWidth,
            height: map.height * map.tileHeight)
    }

    /// An SDL texture of `texture`'s pixels: RGBA8, straight alpha, rows top first, which is
    /// `SDL_PIXELFORMAT_ABGR8888` on a little-endian machine, blended as straight alpha. A
    /// block-compressed texture keeps its blocks where OpenGL has its format (``glUploads``),
    /// and is decoded to RGBA8 on the CPU otherwise.
    private func make(_ texture: Texture) -> OpaquePointer {
        precondition(texture.alphaMode == .straight)
        var made = makeTexture(width: texture.width, height: texture.height)
        guard texture.pixelFormat != .rgba8 else {
            strips.fill(made, with: texture)
            record(.rgba8, texture, bytes: texture.width * texture.height * 4)
            return made
        }
        var reason = "SDL's renderer is not its OpenGL one"
        if let glUploads {
            if let refusal = glUploads.refusal(for: texture.pixelFormat) {
                reason = refusal
            } else if let failure = glUploads.upload(texture, into: made) {
                // The GL texture may be half replaced: start again from a new one.
                reason = failure
                SDL_DestroyTexture(made)
                made = makeTexture(width: texture.width, height: texture.height)
            } else {
                record(.compressed(driver: glUploads.driver), texture, bytes: texture.byteCount)
                return made
            }
        }
        strips.fill(made, with: texture, decodingWith: cpuDecoding)
        record(.decoded(reason: reason), texture, bytes: texture.width * texture.height * 4)
        return made
    }

    /// A static RGBA8 texture blended as straight alpha, its pixels still to come.
    private func makeTexture(width: Int, height: Int) -> OpaquePointer {
        guard
            let made = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width), Int32(height))
        else { Options.fail("SDL_CreateTexture (\(width)x\(height)): \(String(cString: SDL_GetError()))", status: 1) }
        SDL_SetTextureBlendMode(made, SDL_BLENDMODE_BLEND)
        return made
    }

    /// Notes that `texture` went to the GPU by `path`, `bytes` of it reaching the driver.
    private func record(_ path: UploadPaths.Path, _ texture: Texture, bytes: Int) {
        uploadPaths.record(path, format: texture.pixelFormat, bytes: bytes)
        uploadedBytes += bytes
    }

    /// The fraction of the batch (whose progress is `progress`) on the GPU by the example's own
    /// count: the weights of the items it took, less the rows still to copy.
    func fractionOnGPU(of progress: PreloadProgress) -> Double {
        guard progress.totalUnitCount > 0 else { return 0 }
        return min(1, (Double(handedOverWeight) - strips.pendingWeight) / Double(progress.totalUnitCount))
    }

    /// Goes on filling large textures until `deadline`; true when every texture is complete.
    func continueUploads(until deadline: ContinuousClock.Instant) -> Bool {
        strips.continue(until: deadline)
        return strips.isIdle
    }

    /// Draws `texture` with its top-left corner at (`x`, `y`), unscaled.
    func draw(_ texture: OpaquePointer, x: Int, y: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &width, &height)
        var target = SDL_Rect(x: Int32(x), y: Int32(y), w: width, h: height)
        SDL_RenderCopy(renderer, texture, nil, &target)
    }

    /// Draws `frame` of `atlas` as its original, untrimmed image would be drawn with its
    /// top-left corner at (`x`, `y`): the trimmed content at its offset, turned upright.
    func draw(_ frame: AtlasFrame, of atlas: Atlas, x: Int, y: Int) {
        var source = SDL_Rect(x: Int32(frame.rect.x), y: Int32(frame.rect.y), w: Int32(frame.rect.width), h: Int32(frame.rect.height))
        let left = x + frame.offsetX
        let top = y + frame.offsetY
        guard frame.isRotated else {
            var target = SDL_Rect(x: Int32(left), y: Int32(top), w: source.w, h: source.h)
            SDL_RenderCopy(renderer, atlas.pages[frame.page], &source, &target)
            return
        }
        // Stored turned: draw the stored rectangle centred on the upright content, turned back.
        let centreX = left + frame.contentWidth / 2
        let centreY = top + frame.contentHeight / 2
        var target = SDL_Rect(x: Int32(centreX - frame.rect.width / 2), y: Int32(centreY - frame.rect.height / 2), w: source.w, h: source.h)
        let angle: Double = frame.rotation == .clockwise ? -90 : 90
        SDL_RenderCopyEx(renderer, atlas.pages[frame.page], &source, &target, angle, nil, SDL_FLIP_NONE)
    }

    /// Draws frame `index` of `animation` as its whole canvas would be drawn with its top-left
    /// corner at (`x`, `y`): the frame's region of its page where the frame sits on the canvas.
    func draw(frame index: Int, of animation: Animation, x: Int, y: Int) {
        let frame = animation.timing.frames[index]
        guard frame.rect.width > 0, frame.rect.height > 0 else { return }
        var source = SDL_Rect(x: Int32(frame.rect.x), y: Int32(frame.rect.y), w: Int32(frame.rect.width), h: Int32(frame.rect.height))
        var target = SDL_Rect(x: Int32(x + frame.canvasRect.x), y: Int32(y + frame.canvasRect.y), w: source.w, h: source.h)
        SDL_RenderCopy(renderer, animation.pages[frame.page], &source, &target)
    }

    /// Draws `map`'s tiles with the map's top-left corner at (`x`, `y`): each tile's rectangle of
    /// its image at its cell's bottom-left corner (as Tiled draws a tile taller than its cell),
    /// mirrored and turned as its flips say.
    func draw(_ map: Map, x: Int, y: Int) {
        for tile in map.tiles {
            var source = SDL_Rect(x: Int32(tile.rect.x), y: Int32(tile.rect.y), w: Int32(tile.rect.width), h: Int32(tile.rect.height))
            let left = x + tile.column * map.tileWidth
            let top = y + (tile.row + 1) * map.tileHeight - tile.rect.height
            var target = SDL_Rect(x: Int32(left), y: Int32(top), w: source.w, h: source.h)
            let (angle, flip) = Self.transform(tile.flips)
            SDL_RenderCopyEx(renderer, map.images[tile.image], &source, &target, angle, nil, flip)
        }
    }

    /// Tiled's flips as SDL draws them: SDL mirrors the source, then turns it clockwise about its
    /// centre. Tiled mirrors across the diagonal first, then horizontally, then vertically; the
    /// diagonal mirror is a vertical mirror turned 90°, and a horizontal (vertical) mirror after a
    /// quarter turn is a vertical (horizontal) one before it. So a diagonal flip is a quarter turn
    /// of the source mirrored vertically unless the tile is also flipped horizontally, and
    /// horizontally if it is flipped vertically. (A turned tile must be square, as Tiled's are on
    /// an orthogonal map of square cells.)
    static func transform(_ flips: TileFlips) -> (angle: Double, flip: SDL_RendererFlip) {
        var horizontal = flips.contains(.horizontal)
        var vertical = flips.contains(.vertical)
        var angle = 0.0
        if flips.contains(.diagonal) {
            (horizontal, vertical) = (vertical, !horizontal)
            angle = 90
        }
        let bits = (horizontal ? SDL_FLIP_HORIZONTAL.rawValue : 0) | (vertical ? SDL_FLIP_VERTICAL.rawValue : 0)
        return (angle, SDL_RendererFlip(rawValue: bits))
    }

    /// Draws `line`, laid out with `font`, with the first line's top-left corner at (`x`, `y`):
    /// each glyph's rectangle of its page where the layout placed it (kerning included).
    func draw(_ line: TextLayout, of font: Font, x: Int, y: Int) {
        for placed in line.glyphs where placed.glyph.width > 0 && placed.glyph.height > 0 {
            let glyph = placed.glyph
            var source = SDL_Rect(x: Int32(glyph.x), y: Int32(glyph.y), w: Int32(glyph.width), h: Int32(glyph.height))
            var target = SDL_Rect(x: Int32(x + placed.x), y: Int32(y + placed.y), w: source.w, h: source.h)
            SDL_RenderCopy(renderer, font.pages[glyph.page], &source, &target)
        }
    }

    /// Fills a rectangle with an opaque colour.
    func fill(x: Int, y: Int, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) {
        SDL_SetRenderDrawColor(renderer, red, green, blue, 255)
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        SDL_RenderFillRect(renderer, &rect)
    }
}
