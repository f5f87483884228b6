import CSDL2
import Preload
import PreloadAtlas
import PreloadPack

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

    let renderer: OpaquePointer
    private(set) var textures: [OpaquePointer] = []
    private(set) var atlases: [Atlas] = []
    private(set) var packs: [Pack] = []
    /// Pixels uploaded so far.
    private(set) var uploadedBytes = 0
    /// Large textures still being filled, a band of rows per step.
    private(set) var strips = StripUploads()

    init(renderer: OpaquePointer) {
        self.renderer = renderer
    }

    /// Uploads `asset` and returns its handle: an index into the table of its kind.
    func upload(_ asset: any Asset) -> Int? {
        switch asset {
        case let texture as Texture:
            textures.append(make(texture))
            return textures.count - 1
        case let atlas as TextureAtlas:
            atlases.append(upload(atlas))
            return atlases.count - 1
        case let pack as PackAsset:
            var uploaded = Pack()
            for entry in pack.entries {
                switch entry.asset {
                case let texture as Texture: uploaded.textures[entry.name] = make(texture)
                case let atlas as TextureAtlas: uploaded.atlases[entry.name] = upload(atlas)
                default: continue
                }
            }
            packs.append(uploaded)
            return packs.count - 1
        default:
            return nil
        }
    }

    private func upload(_ atlas: TextureAtlas) -> Atlas {
        Atlas(pages: atlas.pages.map { make($0.texture) }, frames: Dictionary(atlas.frames.map { ($0.name, $0) }) { first, _ in first })
    }

    /// An SDL texture of `texture`'s pixels: RGBA8, straight alpha, rows top first, which is
    /// `SDL_PIXELFORMAT_ABGR8888` on a little-endian machine, blended as straight alpha.
    private func make(_ texture: Texture) -> OpaquePointer {
        precondition(texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        guard
            let made = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), Int32(texture.width),
                Int32(texture.height))
        else { Options.fail("SDL_CreateTexture (\(texture.width)x\(texture.height)): \(String(cString: SDL_GetError()))", status: 1) }
        strips.fill(made, with: texture)
        SDL_SetTextureBlendMode(made, SDL_BLENDMODE_BLEND)
        uploadedBytes += texture.byteCount
        return made
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

    /// Fills a rectangle with an opaque colour.
    func fill(x: Int, y: Int, width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) {
        SDL_SetRenderDrawColor(renderer, red, green, blue, 255)
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        SDL_RenderFillRect(renderer, &rect)
    }
}
