import PreloadAtlas
import Foundation
import Preload

/// Writes an atlas as TexturePacker JSON hash descriptors, one per page: `BASE.json` for the
/// first page naming the others in `meta.related_multi_packs` (`BASE-1.json`, ...), each
/// pointing at its page image `BASE-N.png`. Reading `BASE.json` back gives the whole atlas.
public enum TexturePackerWriter {
    struct Rect: Encodable { var x, y, w, h: Int }
    struct Size: Encodable { var w, h: Int }
    struct Frame: Encodable {
        var frame: Rect
        var rotated: Bool
        var trimmed: Bool
        var spriteSourceSize: Rect
        var sourceSize: Size
    }
    struct Meta: Encodable {
        var app = "preload"
        var version = "1.0"
        var image: String
        var format = "RGBA8888"
        var size: Size
        var scale = "1"
        var related_multi_packs: [String]?
    }
    struct Document: Encodable {
        var frames: [String: Frame]
        var meta: Meta
    }

    /// File names for page `index` of an atlas written as `base` (`hero` → `hero-0.png`).
    public static func pageImageName(base: String, index: Int) -> String { "\(AssetPath.fileName(of: base))-\(index).png" }
    /// The descriptor file name for page `index` (`hero` → `hero.json`, then `hero-1.json`).
    public static func descriptorName(base: String, index: Int) -> String {
        index == 0 ? "\(AssetPath.fileName(of: base)).json" : "\(AssetPath.fileName(of: base))-\(index).json"
    }

    /// The descriptors' bytes, one per page, in page order.
    public static func descriptors(for atlas: TextureAtlas, base: String) throws -> [[UInt8]] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try atlas.pages.indices.map { pageIndex in
            var frames: [String: Frame] = [:]
            for frame in atlas.frames where frame.page == pageIndex {
                frames[frame.name] = Frame(
                    frame: Rect(x: frame.rect.x, y: frame.rect.y, w: frame.contentWidth, h: frame.contentHeight),
                    rotated: frame.rotation == .clockwise, trimmed: frame.isTrimmed,
                    spriteSourceSize: Rect(x: frame.offsetX, y: frame.offsetY, w: frame.contentWidth, h: frame.contentHeight),
                    sourceSize: Size(w: frame.sourceWidth, h: frame.sourceHeight))
            }
            let page = atlas.pages[pageIndex].texture
            let others =
                pageIndex == 0 && atlas.pages.count > 1
                ? (1..<atlas.pages.count).map { descriptorName(base: base, index: $0) } : nil
            let meta = Meta(
                image: pageImageName(base: base, index: pageIndex), size: Size(w: page.width, h: page.height),
                related_multi_packs: others)
            return Array(try encoder.encode(Document(frames: frames, meta: meta)))
        }
    }
}
