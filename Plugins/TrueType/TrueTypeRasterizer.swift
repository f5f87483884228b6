import Preload
import PreloadFont

/// A font file's bytes to a `BitmapFont`: the options checked, the face opened by FreeType,
/// each character rendered and its coverage kept, the kerning between them read, the glyphs
/// packed onto pages, and the font's numbers set so that `BitmapFont/layOut(_:)` places every
/// glyph where FreeType places it.
struct TrueTypeRasterizer {
    var options: TrueTypeFontLoaderSettings
    /// The font's path, for the pages' made-up names (`ui.ttf#0`).
    var path: String
    var memory: AssetMemory
    var isCancelled: () -> Bool
    var progress: (Double) -> Void
    var warn: ([AssetWarning]) throws -> Void

    /// Glyphs rendered between cancellation checks.
    static let glyphsPerCheck = 16

    func rasterize(_ contents: AssetBytes) throws -> BitmapFont {
        try options.check()
        guard !contents.isEmpty else { throw TrueTypeFontError.emptyFile }
        return try contents.withUnsafeBytes { bytes in  // AssetBytes keep their address while a copy is held
            let face = try Self.open(bytes, index: options.faceIndex)
            try face.setPixelSize(options.pixelSize)
            let flags = FreeTypeFace.loadFlags(hinting: options.hinting, antialiased: options.isAntialiased)
            let largestSide = options.maxPageSize - 2 * options.padding
            let characters = options.characters.scalars
            var coverage: [UInt8] = []
            var rendered: [(character: Unicode.Scalar, glyph: UInt32, image: RasterizedGlyph)] = []
            var missing: [Unicode.Scalar] = []
            var pixels = 0
            for (done, character) in characters.enumerated() {
                if done % Self.glyphsPerCheck == 0 {
                    if isCancelled() { throw CancellationError() }
                    progress(Double(done) / Double(characters.count) * 0.8)
                }
                let glyph = face.glyphIndex(of: character)
                guard glyph != 0 else {
                    missing.append(character)
                    continue
                }
                let image = try face.render(glyph, flags: flags, largestSide: largestSide, into: &coverage) { Self.name(character) }
                pixels += image.width * image.height
                if pixels > options.maxPageBytes / 4 {
                    throw TrueTypeFontError.limitExceeded(
                        "the glyphs up to \(Self.name(character)) cover more pixels than the \(options.maxPageBytes) bytes "
                            + "TrueTypeFontLoaderSettings.maxPageBytes allows")
                }
                rendered.append((character, glyph, image))
            }
            let notdef = try face.render(0, flags: flags, largestSide: largestSide, into: &coverage) { "the .notdef glyph" }
            var warnings: [AssetWarning] = []
            if !missing.isEmpty { warnings.append(Self.missingWarning(missing)) }
            let kerning = try kerningPairs(face, rendered.map { ($0.character, $0.glyph) }, warnings: &warnings)
            try warn(warnings)
            progress(0.85)

            var images = rendered.map(\.image) + [notdef]
            var ids = rendered.map { Int64($0.character.value) } + [-1]
            if options.rendersMissingCharacters {
                images += Array(repeating: notdef, count: missing.count)
                ids += missing.map { Int64($0.value) }
            }
            let pages = try GlyphPages(
                images, coverage: coverage, options: options, memory: memory, isCancelled: isCancelled,
                progress: { progress(0.85 + $0 * 0.15) })
            let (lineHeight, base) = face.lineMetrics
            let metrics = FontMetrics(
                face: face.familyName, size: options.pixelSize, isBold: face.isBold, isItalic: face.isItalic, isSmooth: options.isAntialiased,
                padding: Array(repeating: options.padding, count: 4), spacing: [options.spacing, options.spacing], lineHeight: lineHeight,
                base: base, pageWidth: pages.width, pageHeight: pages.height)
            var glyphs = zip(ids, images).enumerated().map { index, glyph in
                bitmapGlyph(id: glyph.0, image: glyph.1, rectangle: pages.rectangles[index], base: base)
            }
            let missingGlyph = glyphs.remove(at: rendered.count)
            return BitmapFont(
                format: .rasterized, metrics: metrics,
                pages: pages.textures.enumerated().map { FontPage(path: "\(path)#\($0.offset)", texture: $0.element) }, glyphs: glyphs,
                missingGlyph: missingGlyph, kerningPairs: kerning)
        }
    }

    /// Face `index` of the font in `bytes`. A file that ends before a table it lists fails as
    /// truncated, naming the table (with FreeType's error, when FreeType refused it too).
    private static func open(_ bytes: UnsafeRawBufferPointer, index: Int) throws(TrueTypeFontError) -> FreeTypeFace {
        let face: FreeTypeFace
        do {
            face = try FreeTypeFace(bytes, index: index)
        } catch {
            if case .freeType(_, let code, _) = error, let cut = SfntDirectory.truncation(bytes, face: index) {
                throw .truncated("\(cut) (FreeType: \(TrueTypeFontError.name(ofFreeTypeError: code)))")
            }
            throw error
        }
        if let cut = SfntDirectory.truncation(bytes, face: index) { throw .truncated(cut) }
        return face
    }

    /// The glyph's numbers: its rectangle (padding included), and offsets that put its bitmap
    /// where FreeType puts it from the pen on the line's top.
    private func bitmapGlyph(
        id: Int64, image: RasterizedGlyph, rectangle: (page: Int, x: Int, y: Int, width: Int, height: Int), base: Int
    ) -> BitmapGlyph {
        let padding = rectangle.width > 0 ? options.padding : 0
        return BitmapGlyph(
            id: id, x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height, xOffset: image.left - padding,
            yOffset: base - image.top - padding, xAdvance: image.advance, page: rectangle.page)
    }

    /// The kerning FreeType reads from the face's `kern` table between every two of
    /// `characters`, the pairs that are not 0, in the characters' order; none (and a warning)
    /// above ``TrueTypeFontLoaderSettings/mostKernedCharacters``.
    private func kerningPairs(
        _ face: borrowing FreeTypeFace, _ characters: [(character: Unicode.Scalar, glyph: UInt32)], warnings: inout [AssetWarning]
    ) throws -> [KerningPair] {
        guard face.hasKerning else { return [] }
        guard characters.count <= options.mostKernedCharacters else {
            warnings.append(
                AssetWarning(
                    .trueTypeKerningSkipped,
                    "the face has kerning, but its \(characters.count) characters are more than the \(options.mostKernedCharacters) "
                        + "whose pairs are read (TrueTypeFontLoaderSettings.mostKernedCharacters); the font has none"))
            return []
        }
        var pairs: [KerningPair] = []
        for left in characters {
            if isCancelled() { throw CancellationError() }
            for right in characters {
                let amount = face.kerning(left.glyph, right.glyph)
                if amount != 0 { pairs.append(KerningPair(first: Int64(left.character.value), second: Int64(right.character.value), amount: amount)) }
            }
        }
        return pairs
    }

    /// One warning naming the characters the face lacks (the first 32, then how many more).
    static func missingWarning(_ missing: [Unicode.Scalar]) -> AssetWarning {
        let named = missing.prefix(32).map(name).joined(separator: ", ")
        let more = missing.count > 32 ? " and \(missing.count - 32) more" : ""
        let count = "\(missing.count) character\(missing.count == 1 ? "" : "s")"
        return AssetWarning(.trueTypeMissingCharacters, "the face has no glyph for \(count): \(named)\(more)")
    }

    /// `character 65 ('A')`, or `character 10` for one that does not print.
    static func name(_ character: Unicode.Scalar) -> String {
        let printable = character.value > 32 && !character.properties.isWhitespace && character.properties.generalCategory != .control
        return printable ? "character \(character.value) ('\(Character(character))')" : "character \(character.value)"
    }
}
