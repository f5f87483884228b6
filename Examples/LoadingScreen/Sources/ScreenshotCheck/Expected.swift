import Foundation
import Preload
import PreloadPNG
import PreloadPack
import SceneLayout

/// Each sprite's original image, upright and untrimmed, from its source.
enum Expected {
    struct Unknown: Error, CustomStringConvertible {
        let description: String
    }

    static func source(of sprite: SceneLayout.Sprite) throws -> Image {
        if let file = sprite.file { return try Image.decode(file: file) }
        if let pack = sprite.pack, let entry = sprite.entry {
            let bytes = try PackLoader().readEntry(entry, in: pack, limit: .max, memory: .shared, isCancelled: { false }, progress: { _ in })
            return try Image.decode(bytes: bytes.array)
        }
        if let atlas = sprite.atlas, let frame = sprite.frame { return try texturePackerFrame(frame, in: atlas) }
        throw Unknown(description: "\(sprite.name): no source")
    }

    /// A TexturePacker (hash) frame read straight from the JSON: the stored rectangle (turned
    /// back if stored turned 90° clockwise), placed at its trim offset in its original size.
    static func texturePackerFrame(_ name: String, in descriptor: String) throws -> Image {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: descriptor))) as! [String: Any]
        let meta = json["meta"] as! [String: Any]
        let page = try Image.decode(file: (descriptor as NSString).deletingLastPathComponent + "/" + (meta["image"] as! String))
        let fields = (json["frames"] as! [String: Any])[name] as! [String: Any]
        let frame = fields["frame"] as! [String: Int]
        let offset = fields["spriteSourceSize"] as! [String: Int]
        let size = fields["sourceSize"] as! [String: Int]
        let (w, h) = (frame["w"]!, frame["h"]!)
        var content: Image
        if fields["rotated"] as? Bool == true {
            let stored = page.crop(x: frame["x"]!, y: frame["y"]!, width: h, height: w)
            content = Image(width: w, height: h, pixels: [])
            for v in 0..<h { for u in 0..<w { content.pixels += stored.pixel(h - 1 - v, u) } }
        } else {
            content = page.crop(x: frame["x"]!, y: frame["y"]!, width: w, height: h)
        }
        let transparent = Image(width: size["w"]!, height: size["h"]!, pixels: [UInt8](repeating: 0, count: size["w"]! * size["h"]! * 4))
        return transparent.placing(content, x: offset["x"]!, y: offset["y"]!)
    }
}
