import Preload

extension AssetKind {
    /// A font whose glyphs are images on pages (``BitmapFont``).
    public static let font: AssetKind = "font"
}

/// One page of a bitmap font: its image and where it came from.
public struct FontPage: Sendable {
    /// The page image's path (for a font rasterized at load, a made-up name: `ui.ttf#1`).
    public let path: String
    /// The decoded page.
    public let texture: Texture

    /// A page loaded from `path`.
    public init(path: String, texture: Texture) {
        self.path = path
        self.texture = texture
    }
}

/// A loaded bitmap font: pages, glyphs and kerning, whatever file it came from (AngelCode BMFont
/// text, XML or binary; a TrueType or OpenType font rasterized at load).
///
/// ```swift
/// import Preload
/// import PreloadFont
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
/// _ = try await coordinator.preload([AssetRequest(path: "assets/fonts/pixel.fnt", name: "pixel")])
/// let font = coordinator.assets.asset(named: "pixel", as: BitmapFont.self)!
/// let line = font.layOut("Score: 100")
/// for placed in line.glyphs {
///     let page = font.pages[placed.glyph.page].texture  // draw glyph.x, glyph.y, glyph.width, glyph.height
///     _ = (page, placed.x, placed.y)                    // at placed.x, placed.y
/// }
/// print("\(line.width) pixels wide")
/// ```
public struct BitmapFont: TextureHolding {
    /// The encoding a font was read from.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        /// AngelCode BMFont's text form.
        case text = "bmfont-text"
        /// AngelCode BMFont's XML form (Phaser's `bitmapFont`).
        case xml = "bmfont-xml"
        /// AngelCode BMFont's binary form, version 3.
        case binary = "bmfont-binary"
        /// A TrueType or OpenType font, rasterized at load.
        case rasterized
    }

    /// The encoding it was read from.
    public let format: Format
    /// How it was made and how its lines are spaced.
    public let metrics: FontMetrics
    /// Its page images, by index (``BitmapGlyph/page``).
    public let pages: [FontPage]
    /// Its characters, in the file's order.
    public let glyphs: [BitmapGlyph]
    /// The glyph drawn for a character the font lacks, if the font has one (BMFont's `id=-1`).
    public let missingGlyph: BitmapGlyph?
    /// Its kerning pairs, in the file's order.
    public let kerningPairs: [KerningPair]
    private let glyphIndex: [Int64: Int]
    private let kerning: [KerningKey: Int]

    /// A font of these pages, glyphs and pairs. For an id or pair given twice, the last counts.
    public init(
        format: Format, metrics: FontMetrics, pages: [FontPage], glyphs: [BitmapGlyph], missingGlyph: BitmapGlyph? = nil,
        kerningPairs: [KerningPair] = []
    ) {
        self.format = format
        self.metrics = metrics
        self.pages = pages
        self.glyphs = glyphs
        self.missingGlyph = missingGlyph
        self.kerningPairs = kerningPairs
        var glyphIndex: [Int64: Int] = [:]
        glyphIndex.reserveCapacity(glyphs.count)
        for (index, glyph) in glyphs.enumerated() { glyphIndex[glyph.id] = index }
        var kerning: [KerningKey: Int] = [:]
        kerning.reserveCapacity(kerningPairs.count)
        for pair in kerningPairs { kerning[KerningKey(first: pair.first, second: pair.second)] = pair.amount }
        self.glyphIndex = glyphIndex
        self.kerning = kerning
    }

    public var kind: AssetKind { .font }
    /// The pages' pixels (which the batch also holds as textures of their own: the report
    /// counts them once).
    public var byteCount: Int { pages.reduce(0) { $0 + $1.texture.byteCount } }
    /// Its pages' textures, which the batch loaded (and counts) as textures of their own.
    public var heldTextures: [Texture] { pages.map(\.texture) }

    /// The distance from one line's top to the next's.
    public var lineHeight: Int { metrics.lineHeight }
    /// The distance from a line's top to its baseline.
    public var base: Int { metrics.base }

    /// The glyph of `character`, or `nil` if the font does not have it.
    public func glyph(for character: Unicode.Scalar) -> BitmapGlyph? {
        glyphIndex[Int64(character.value)].map { glyphs[$0] }
    }

    /// The glyph whose id is `id` (a code point, or the charset's number in a non-Unicode font).
    public func glyph(id: Int64) -> BitmapGlyph? {
        glyphIndex[id].map { glyphs[$0] }
    }

    /// Pixels added to the advance between `first` and `second` (0 for a pair without kerning).
    public func kerning(from first: Unicode.Scalar, to second: Unicode.Scalar) -> Int {
        kerning[KerningKey(first: Int64(first.value), second: Int64(second.value))] ?? 0
    }

    /// Where each character of `text` goes: the pen starts at 0 on the first line's top, moves by
    /// each glyph's advance plus the kerning between it and the one before, and `\n` starts a
    /// new line ``lineHeight`` lower (`\r` is ignored). A character the font lacks is drawn with
    /// ``missingGlyph`` if there is one, and listed in ``TextLayout/missing`` either way.
    public func layOut(_ text: String) -> TextLayout {
        var placed: [TextLayout.PlacedGlyph] = []
        var missing: [Unicode.Scalar] = []
        var penX = 0, line = 0, widest = 0
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                widest = max(widest, penX)
                penX = 0
                line += 1
                previous = nil
                continue
            }
            if scalar == "\r" { continue }
            guard let glyph = glyph(for: scalar) ?? missingGlyph else {
                missing.append(scalar)
                previous = nil
                continue
            }
            if self.glyph(for: scalar) == nil { missing.append(scalar) }
            if let previous { penX += kerning(from: previous, to: scalar) }
            placed.append(
                TextLayout.PlacedGlyph(
                    character: scalar, glyph: glyph, x: penX + glyph.xOffset, y: line * metrics.lineHeight + glyph.yOffset, line: line))
            penX += glyph.xAdvance
            previous = scalar
        }
        widest = max(widest, penX)
        return TextLayout(glyphs: placed, width: widest, height: (line + 1) * metrics.lineHeight, lineCount: line + 1, missing: missing)
    }
}
