import CSDL2
import Preload
import PreloadAuthoring

/// Saves what the renderer drew this frame as a PNG (RGBA8, rows top first).
enum Screenshot {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static func save(renderer: OpaquePointer, width: Int, height: Int, to path: String) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let read = pixels.withUnsafeMutableBytes {
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ABGR8888.rawValue, $0.baseAddress, Int32(width * 4))
        }
        guard read == 0 else { throw Failed(description: "SDL_RenderReadPixels: \(String(cString: SDL_GetError()))") }
        for alpha in stride(from: 3, to: pixels.count, by: 4) { pixels[alpha] = 255 }  // the window is opaque
        let texture = Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        let file = try AtomicFile(path: path)
        try file.write(try PNGEncoder.encode(texture))
        try file.commit()
    }
}
