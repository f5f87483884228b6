import CSDL2
import Foundation
import PreloadBaked

/// Which SDL renderer draws the level. SDL's software renderer, by default: the same pixels on
/// every machine, which the screenshot check's exact comparison relies on. For a pack baked with
/// `--gpu`, SDL's OpenGL renderer, whose textures can take the pack's compressed blocks as they
/// are (`GLCompressedUploads`); the screenshot is then checked within a PSNR, as the blocks are
/// near the source, not equal to it. Where OpenGL is not to be had (or `--decode-on-cpu`), the
/// software renderer, and the blocks decoded on the CPU.
enum RendererChoice {
    /// The renderer for `window`, as `options` and the pack it loads call for.
    static func renderer(for window: OpaquePointer, options: Options) -> OpaquePointer {
        if let pack = options.baked, !options.decodesOnCPU, holdsGPUTextures(pack: pack) {
            SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl")
            if let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue) { return renderer }
        }
        guard let renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            Options.fail("SDL_CreateRenderer: \(String(cString: SDL_GetError()))", status: 1)
        }
        return renderer
    }

    /// Whether the baked pack at `path` holds block-compressed textures (entries of kind
    /// `gpuTexture`). A pack whose index does not read says no: loading it says why.
    static func holdsGPUTextures(pack path: String) -> Bool {
        guard let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return false }
        return file.withUnsafeBytes { bytes in
            let index = try? BakedIndex(file: bytes, checksum: { BakedChecksum.crc32($0) })
            return index?.entries.contains { $0.kind == "gpuTexture" } ?? false
        }
    }
}
