import Foundation
import Preload
import PreloadAtlas

/// How a baked pack holds a ``SpriteAnimation``: a 32-byte header, its frames as fixed-size
/// little-endian records (read without a parse), then its pages and tags as JSON. The pages are
/// other entries, named by entry number, as an atlas's are. The layout is in
/// docs/bake-format.md ("Animation").
///
/// The version byte says what the JSON holds: version 1, `pages` and `tags`. Slices and user
/// data, when the animation carries them, come as further keys of the JSON in a later version,
/// which a version 1 reader refuses by name rather than passing over.
enum BakedAnimation {
    /// The header's first four bytes.
    static let magic = Array("PANI".utf8)
    /// The version this writer writes and this reader reads.
    static let version: UInt8 = 1
    /// The header's size.
    static let headerSize = 32
    /// A frame's record: page, x, y, width, height (on the page), canvas x, canvas y, duration in
    /// milliseconds, 32 bits each, unsigned.
    static let frameSize = 32

    /// The entry's JSON: the page entries and the tags.
    struct Tables: Codable, Equatable {
        /// A page: the entry holding its texture.
        struct Page: Codable, Equatable {
            var entry: Int
        }

        /// A tag, field for field ``AnimationTag`` (`direction` its raw value).
        struct Tag: Codable, Equatable {
            var name: String
            var from: Int
            var to: Int
            var direction: String
            var `repeat`: Int
        }

        var pages: [Page]
        var tags: [Tag]
    }

    /// The entry's bytes for `animation`, its pages in the entries `pageEntries` (in page order).
    /// Throws why it cannot be baked: a frame whose canvas rectangle is not its page
    /// rectangle's size, or a number that does not fit the record's 32 bits.
    static func encode(_ animation: SpriteAnimation, pageEntries: [Int]) throws -> AssetBytes {
        let tables = Tables(
            pages: pageEntries.map { Tables.Page(entry: $0) },
            tags: animation.tags.map {
                Tables.Tag(name: $0.name, from: $0.from, to: $0.to, direction: $0.direction.rawValue, repeat: $0.repeatCount)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same animation bakes to the same bytes
        let json = [UInt8](try encoder.encode(tables))
        var bytes = magic + [version, 0, 0, 0]
        for value in [animation.width, animation.height, animation.loopCount, animation.frames.count, json.count] {
            bytes.appendLittleEndian(try field(value, "a canvas size, loop count or frame count"))
        }
        bytes += [0, 0, 0, 0]
        bytes.reserveCapacity(headerSize + animation.frames.count * frameSize + json.count)
        for (index, frame) in animation.frames.enumerated() {
            guard frame.canvasRect.width == frame.rect.width, frame.canvasRect.height == frame.rect.height else {
                throw BakingRefused(detail: "frame \(index)'s canvas rectangle \(frame.canvasRect) is not the size of its pixels \(frame.rect)")
            }
            let values = [
                frame.page, frame.rect.x, frame.rect.y, frame.rect.width, frame.rect.height, frame.canvasRect.x, frame.canvasRect.y,
                frame.durationMilliseconds,
            ]
            for value in values { bytes.appendLittleEndian(try field(value, "frame \(index)")) }
        }
        return AssetBytes(bytes + json)
    }

    /// `value` as a record's field, or why not.
    private static func field(_ value: Int, _ place: String) throws -> UInt32 {
        guard let field = UInt32(exactly: value) else { throw BakingRefused(detail: "\(place) holds \(value), outside 0...\(UInt32.max)") }
        return field
    }

    /// Why an animation has no baked form as it is.
    struct BakingRefused: AssetFailure {
        var detail: String
        var category: AssetError.Category { .unsupported }
        var description: String { "the animation does not bake: \(detail)" }
    }

    /// Where an entry's parts are, from its header.
    struct Layout {
        var width: Int
        var height: Int
        var loopCount: Int
        var frames: Int
        var tables: Tables
    }

    /// The header and JSON of an animation entry, `bytes` (already checksummed): its pages, before
    /// they load. Throws `malformed` naming what does not read: another magic or version, a
    /// length other than the header counts, a JSON that does not decode.
    static func layout(of bytes: UnsafeRawBufferPointer, malformed: (String) -> any Error) throws -> Layout {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else {
            throw malformed("not an animation entry (no PANI header in its \(bytes.count) bytes)")
        }
        guard bytes[4] == version else { throw malformed("animation entry version \(bytes[4]); this reader reads version \(version)") }
        let field = { (offset: Int) in Int(bytes.littleEndian(at: offset, as: UInt32.self)) }
        let (frames, json) = (field(20), field(24))
        guard bytes.count == headerSize + frames * frameSize + json else {
            throw malformed(
                "an animation entry of \(bytes.count) bytes does not hold what its header counts (\(frames) frames and \(json) bytes of JSON)")
        }
        let start = headerSize + frames * frameSize
        do {
            let tables = try JSONDecoder().decode(Tables.self, from: Data(bytes[start..<start + json]))
            return Layout(width: field(8), height: field(12), loopCount: field(16), frames: frames, tables: tables)
        } catch {
            throw malformed("its animation tables do not read: \(error)")
        }
    }

    /// The animation in `bytes` (an animation entry whose ``layout(of:malformed:)`` gave
    /// `layout`), with `pages` (the page textures, in page order); throws `malformed` naming why
    /// the entry cannot be one: a frame on a page that does not exist, outside its page or its
    /// canvas, a tag past the frames or in an unknown direction.
    static func animation(
        in bytes: UnsafeRawBufferPointer, layout: Layout, pages: [Texture], malformed: (String) -> any Error
    ) throws
        -> SpriteAnimation
    {
        var frames: [SpriteAnimation.Frame] = []
        frames.reserveCapacity(layout.frames)
        for index in 0..<layout.frames {
            let at = headerSize + index * frameSize
            let field = { (n: Int) in Int(bytes.littleEndian(at: at + 4 * n, as: UInt32.self)) }
            let (page, width, height) = (field(0), field(3), field(4))
            let rect = PixelRect(x: field(1), y: field(2), width: width, height: height)
            let canvasRect = PixelRect(x: field(5), y: field(6), width: width, height: height)
            guard pages.indices.contains(page) else {
                throw malformed("animation frame \(index) is on page index \(page), and the animation has \(pages.count) pages")
            }
            guard rect.isInside(width: pages[page].width, height: pages[page].height) else {
                throw malformed("animation frame \(index)'s \(rect) lies outside its \(pages[page].width)x\(pages[page].height) page")
            }
            guard canvasRect.isInside(width: layout.width, height: layout.height) else {
                throw malformed("animation frame \(index)'s \(canvasRect) lies outside its \(layout.width)x\(layout.height) canvas")
            }
            frames.append(SpriteAnimation.Frame(page: page, rect: rect, canvasRect: canvasRect, durationMilliseconds: field(7)))
        }
        let tags = try layout.tables.tags.map { tag in
            guard let direction = AnimationTag.Direction(rawValue: tag.direction) else {
                throw malformed("animation tag '\(tag.name)' has an unknown direction '\(tag.direction)'")
            }
            guard tag.from >= 0, tag.from <= tag.to, tag.to < frames.count, tag.repeat >= 0 else {
                throw malformed(
                    "animation tag '\(tag.name)' runs from frame \(tag.from) to \(tag.to) (repeat \(tag.repeat)), past the \(frames.count) frames")
            }
            return AnimationTag(name: tag.name, from: tag.from, to: tag.to, direction: direction, repeatCount: tag.repeat)
        }
        return SpriteAnimation(width: layout.width, height: layout.height, pages: pages, frames: frames, tags: tags, loopCount: layout.loopCount)
    }
}
