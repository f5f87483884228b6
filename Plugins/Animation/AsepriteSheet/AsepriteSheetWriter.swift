import Foundation
import Preload
import PreloadAtlas

/// An animation written as Aseprite's sheet export is: one sheet image and a JSON in Aseprite's
/// `json-hash` form (`frames` keyed by frame name, in frame order, each with `frame`, `rotated`,
/// `trimmed`, `spriteSourceSize`, `sourceSize` and `duration`; `meta` with `app`, `version`,
/// `image`, `format`, `size`, `scale`, `frameTags` and `slices`, tags and slices with their
/// user data's `color` and `data`), which ``AsepriteSheetLoader`` (and Phaser's `aseprite`
/// loader) read back as the same animation. Frames are written as the animation holds them:
/// trimmed to their pixels, frames showing the same pixels on one region. Aseprite's export has
/// no place for the sprite's own user data, and this writer writes no custom properties.
enum AsepriteSheetWriter {
    /// The sheet the frames are on: the page itself when there is one; the pages one below
    /// the other when there are more (RGBA8, one alpha mode); `nil` otherwise (``refusal(_:)``
    /// says why). `top` is each page's first row on the sheet.
    static func sheet(of animation: SpriteAnimation, memory: AssetMemory = .shared) -> (sheet: Texture, top: [Int])? {
        let pages = animation.pages
        if pages.count == 1 { return (pages[0], [0]) }
        guard !pages.isEmpty, pages.allSatisfy({ $0.pixelFormat == .rgba8 && $0.alphaMode == pages[0].alphaMode }) else { return nil }
        let width = pages.map(\.width).max() ?? 0, height = pages.reduce(0) { $0 + $1.height }
        var top: [Int] = []
        let byteCount = width * height * 4
        let pixels = AssetBytes(unsafeUninitializedCapacity: byteCount, memory: memory) { buffer, count in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            var row = 0
            for page in pages {
                top.append(row)
                page.pixels.withUnsafeBytes { source in
                    for y in 0..<page.height {
                        let target = (row + y) * width * 4, rowBytes = page.width * 4
                        UnsafeMutableRawBufferPointer(rebasing: buffer[target..<target + rowBytes]).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source[y * rowBytes..<(y + 1) * rowBytes]))
                    }
                }
                row += page.height
            }
            count = byteCount
        }
        return (Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: pages[0].alphaMode, pixels: pixels), top)
    }

    /// Why the animation makes no sheet, if it does not: a frame not inside its page, or pages
    /// that are not all RGBA8 in one alpha mode (GPU-ready pages of a pack baked with `--gpu`).
    static func refusal(_ animation: SpriteAnimation) -> String? {
        let pages = animation.pages
        for (index, frame) in animation.frames.enumerated() where frame.rect.width > 0 && frame.rect.height > 0 {
            guard pages.indices.contains(frame.page), frame.rect.isInside(width: pages[frame.page].width, height: pages[frame.page].height) else {
                return "frame \(index) is not inside its page"
            }
        }
        guard sheet(of: animation) != nil else {
            return "its \(pages.count) pages are not all RGBA8 in one alpha mode (baked with --gpu?), so they make no one sheet"
        }
        return nil
    }

    /// The JSON for `animation` on a `sheetWidth` x `sheetHeight` sheet (its pages' first rows
    /// at `top`) written as the file `image`, beside the JSON; frames named `TITLE N.EXTENSION`
    /// after `name` (the store name), as Aseprite names them.
    static func json(
        _ animation: SpriteAnimation, name: String, image: String, sheetWidth: Int, sheetHeight: Int, top: [Int]
    ) throws -> [UInt8] {
        let fileName = AssetPath.fileName(of: name)
        let dot = fileName.lastIndex(of: ".")
        let title = dot.map { String(fileName[..<$0]) } ?? fileName, suffix = dot.map { String(fileName[$0...]) } ?? ""
        var frames: [String] = []
        for (index, frame) in animation.frames.enumerated() {
            // An empty frame is written at the sheet's corner, where any sheet holds it.
            let isEmpty = frame.rect.width == 0 || frame.rect.height == 0
            let rect = isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : frame.rect, placed = frame.canvasRect
            let trimmed = placed != PixelRect(x: 0, y: 0, width: animation.width, height: animation.height)
            frames.append(
                try string("\(title) \(index)\(suffix)")
                    + #": {"frame": {"x": \#(rect.x), "y": \#(isEmpty ? 0 : top[frame.page] + rect.y), "w": \#(rect.width), "h": \#(rect.height)}, "#
                    + #""rotated": false, "trimmed": \#(trimmed), "#
                    + #""spriteSourceSize": {"x": \#(placed.x), "y": \#(placed.y), "w": \#(placed.width), "h": \#(placed.height)}, "#
                    + #""sourceSize": {"w": \#(animation.width), "h": \#(animation.height)}, "duration": \#(frame.durationMilliseconds)}"#)
        }
        var tags: [String] = []
        for tag in animation.tags {
            let repeatCount = tag.repeatCount > 0 ? #", "repeat": "\#(tag.repeatCount)""# : ""
            tags.append(
                #"{"name": \#(try string(tag.name)), "from": \#(tag.from), "to": \#(tag.to), "direction": "\#(tag.direction.asepriteName)"\#(repeatCount)"#
                    + "\(try userData(tag.userData))}")
        }
        var slices: [String] = []
        for slice in animation.slices {
            let keys = slice.keys.map { key in
                #"{"frame": \#(key.frame), "bounds": \#(rect(key.bounds))"# + (key.center.map { #", "center": \#(rect($0))"# } ?? "")
                    + (key.pivot.map { #", "pivot": {"x": \#($0.x), "y": \#($0.y)}"# } ?? "") + "}"
            }
            slices.append(#"{"name": \#(try string(slice.name))\#(try userData(slice.userData)), "keys": [\#(keys.joined(separator: ", "))]}"#)
        }
        let meta =
            #"{"app": "Preload", "version": "1", "image": \#(try string(image)), "format": "RGBA8888", "#
            + #""size": {"w": \#(sheetWidth), "h": \#(sheetHeight)}, "scale": "1", "frameTags": [\#(tags.joined(separator: ", "))]"#
            + (slices.isEmpty ? "" : #", "slices": [\#(slices.joined(separator: ", "))]"#) + "}"
        let text = "{\"frames\": {\n  " + frames.joined(separator: ",\n  ") + "\n},\n\"meta\": " + meta + "\n}\n"
        return Array(text.utf8)
    }

    /// A tag's or slice's user data as Aseprite's export writes it: `, "color": "#rrggbbaa"` and
    /// `, "data": TEXT`, each when given (its properties are not written).
    private static func userData(_ userData: AnimationUserData) throws -> String {
        (userData.color.map { #", "color": "\#($0)""# } ?? "") + (try userData.text.map { #", "data": \#(try string($0))"# } ?? "")
    }

    /// `{"x": X, "y": Y, "w": W, "h": H}`.
    private static func rect(_ rect: PixelRect) -> String { #"{"x": \#(rect.x), "y": \#(rect.y), "w": \#(rect.width), "h": \#(rect.height)}"# }

    /// `text` as a JSON string, quoted and escaped.
    private static func string(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}

extension AnimationTag.Direction {
    /// The name Aseprite's export writes in `frameTags`' `direction`.
    var asepriteName: String {
        switch self {
        case .forward: "forward"
        case .reverse: "reverse"
        case .pingPong: "pingpong"
        case .pingPongReverse: "pingpong_reverse"
        }
    }
}
