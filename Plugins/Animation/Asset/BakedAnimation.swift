import Foundation
import Preload
import PreloadAtlas

/// How a baked pack holds a ``SpriteAnimation``: a 32-byte header, its frames as fixed-size
/// little-endian records (read without a parse), then its pages and tags as JSON. The pages are
/// other entries, named by entry number, as an atlas's are. The layout is in
/// docs/bake-format.md ("Animation").
///
/// The version byte says what the JSON holds: version 1, `pages` and `tags`; version 2 adds
/// slices and user data (`BakedAnimationTables`), so that a version 1 reader refuses them by name
/// rather than passing over them. An animation without them is written as version 1.
enum BakedAnimation {
    /// The header's first four bytes.
    static let magic = Array("PANI".utf8)
    /// The latest version this writer writes and this reader reads.
    static let version: UInt8 = 2
    /// The header's size.
    static let headerSize = 32
    /// A frame's record: page, x, y, width, height (on the page), canvas x, canvas y, duration in
    /// milliseconds, 32 bits each, unsigned.
    static let frameSize = 32

    /// The entry's bytes for `animation`, its pages in the entries `pageEntries` (in page order).
    /// Throws why it cannot be baked: a frame whose canvas rectangle is not its page
    /// rectangle's size, or a number that does not fit the record's 32 bits.
    static func encode(_ animation: SpriteAnimation, pageEntries: [Int]) throws -> AssetBytes {
        let tables = BakedAnimationTables(animation, pageEntries: pageEntries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same animation bakes to the same bytes
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let json = [UInt8](try encoder.encode(tables))
        var bytes = magic + [tables.needsVersion2 ? 2 : 1, 0, 0, 0]
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
        var tables: BakedAnimationTables
    }

    /// The header and JSON of an animation entry, `bytes` (already checksummed): its pages, before
    /// they load. Throws `malformed` naming what does not read: another magic or version, a
    /// length other than the header counts, a JSON that does not decode.
    static func layout(of bytes: UnsafeRawBufferPointer, malformed: (String) -> any Error) throws -> Layout {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else {
            throw malformed("not an animation entry (no PANI header in its \(bytes.count) bytes)")
        }
        guard (1...version).contains(bytes[4]) else {
            throw malformed("animation entry version \(bytes[4]); this reader reads versions 1 to \(version)")
        }
        let field = { (offset: Int) in Int(bytes.littleEndian(at: offset, as: UInt32.self)) }
        let (frames, json) = (field(20), field(24))
        guard bytes.count == headerSize + frames * frameSize + json else {
            throw malformed(
                "an animation entry of \(bytes.count) bytes does not hold what its header counts (\(frames) frames and \(json) bytes of JSON)")
        }
        let start = headerSize + frames * frameSize
        let tables: BakedAnimationTables
        do {
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            tables = try decoder.decode(BakedAnimationTables.self, from: Data(bytes[start..<start + json]))
        } catch {
            throw malformed("its animation tables do not read: \(error)")
        }
        guard bytes[4] == 2 || !tables.needsVersion2 else { throw malformed("a version 1 animation entry holds slices or user data") }
        return Layout(width: field(8), height: field(12), loopCount: field(16), frames: frames, tables: tables)
    }

    /// The animation in `bytes` (an animation entry whose ``layout(of:malformed:)`` gave
    /// `layout`), with `pages` (the page textures, in page order); throws `malformed` naming why
    /// the entry cannot be one: a frame on a page that does not exist, outside its page or its
    /// canvas, a tag past the frames or in an unknown direction, a slice or user data that does not
    /// read.
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
        let (tags, slices, userData) = try layout.tables.model(frameCount: frames.count, malformed: malformed)
        return SpriteAnimation(
            width: layout.width, height: layout.height, pages: pages, frames: frames, tags: tags, loopCount: layout.loopCount, slices: slices,
            userData: userData)
    }
}
