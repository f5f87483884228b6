import CFreeType

/// One face of a font file opened by FreeType, with a library of its own: FreeType's library is
/// not thread-safe while faces are created and destroyed, and making one costs about 2 µs (one
/// load rasterizes for hundreds), so each load makes its own and nothing is shared between
/// threads. The file's bytes must stay where they are until the face is gone.
struct FreeTypeFace: ~Copyable {
    private let library: FT_Library
    private let face: FT_Face

    /// Opens face `index` of the font in `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, index: Int) throws(TrueTypeFontError) {
        var library: FT_Library?
        let status = FT_Init_FreeType(&library)
        guard status == 0, let library else { throw .freeType(function: "FT_Init_FreeType", code: status, detail: "") }
        var face: FT_Face?
        let base = bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self)
        let opened = FT_New_Memory_Face(library, base, FT_Long(bytes.count), FT_Long(index), &face)
        guard opened == 0, let face else {
            defer { FT_Done_FreeType(library) }
            if index > 0, opened == 6 {  // FT_Err_Invalid_Argument: a face the file does not have
                var probe: FT_Face?
                if FT_New_Memory_Face(library, base, FT_Long(bytes.count), -1, &probe) == 0, let probe {
                    let count = Int(probe.pointee.num_faces)
                    FT_Done_Face(probe)
                    throw .noSuchFace(index: index, faceCount: count)
                }
            }
            throw .freeType(function: "FT_New_Memory_Face", code: opened, detail: "")
        }
        self.library = library
        self.face = face
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Sets the size glyphs render at, in pixels per em.
    func setPixelSize(_ size: Int) throws(TrueTypeFontError) {
        let status = FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        guard status == 0 else { throw .freeType(function: "FT_Set_Pixel_Sizes", code: status, detail: "\(size) pixels") }
    }

    /// The family name FreeType reads from the face ("DejaVu Sans"; empty if it has none).
    var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }
    /// Whether the face says it is bold (`FT_STYLE_FLAG_BOLD`).
    var isBold: Bool { face.pointee.style_flags & 2 != 0 }
    /// Whether the face says it is italic (`FT_STYLE_FLAG_ITALIC`).
    var isItalic: Bool { face.pointee.style_flags & 1 != 0 }
    /// Whether the face has a `kern` table FreeType reads (`FT_FACE_FLAG_KERNING`).
    var hasKerning: Bool { face.pointee.face_flags & (1 << 6) != 0 }

    /// The size's metrics in whole pixels, rounded from FreeType's 26.6 numbers: the baseline-to-
    /// baseline distance (`height`) and the ascender.
    var lineMetrics: (height: Int, ascender: Int) {
        guard let size = face.pointee.size else { return (0, 0) }
        return (Self.pixels(size.pointee.metrics.height), Self.pixels(size.pointee.metrics.ascender))
    }

    /// The face's glyph for `character` in its selected character map (Unicode when it has
    /// one), or 0 (`.notdef`) when it has none.
    func glyphIndex(of character: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(character.value))
    }

    /// The `FT_Load_Glyph` flags and the render mode for `hinting` and antialiasing.
    static func loadFlags(hinting: TrueTypeFontLoaderSettings.Hinting, antialiased: Bool) -> (load: FT_Int32, render: FT_Render_Mode) {
        let target =
            hinting == .light ? preload_ft_load_target_light : antialiased ? preload_ft_load_target_normal : preload_ft_load_target_mono
        let noHinting: FT_Int32 = hinting == .off ? 1 << 1 : 0  // FT_LOAD_NO_HINTING
        let render = !antialiased ? FT_RENDER_MODE_MONO : hinting == .light ? FT_RENDER_MODE_LIGHT : FT_RENDER_MODE_NORMAL
        return (target | noHinting, render)
    }

    /// Loads and renders `glyph` as FreeType's `FT_Load_Glyph(..., flags | FT_LOAD_RENDER)`
    /// would: the bitmap's size and place are read first (FreeType presets them when it loads
    /// the outline), so a glyph larger than `largestSide` is refused before anything is
    /// allocated for it. The coverage rows (0 to 255, no padding) are appended to `coverage`.
    func render(
        _ glyph: UInt32, flags: (load: FT_Int32, render: FT_Render_Mode), largestSide: Int, into coverage: inout [UInt8], detail: () -> String
    ) throws(TrueTypeFontError) -> RasterizedGlyph {
        let loaded = FT_Load_Glyph(face, FT_UInt(glyph), flags.load)
        guard loaded == 0 else { throw .freeType(function: "FT_Load_Glyph", code: loaded, detail: detail()) }
        let slot = face.pointee.glyph!
        let preset = slot.pointee.bitmap
        guard preset.width <= largestSide, preset.rows <= largestSide else {
            throw .limitExceeded("\(detail()) is \(preset.width)x\(preset.rows) pixels, larger than a page allows (\(largestSide) a side)")
        }
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
            let rendered = FT_Render_Glyph(slot, flags.render)
            guard rendered == 0 else { throw .freeType(function: "FT_Render_Glyph", code: rendered, detail: detail()) }
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width <= largestSide, rows <= largestSide else {
            throw .limitExceeded("\(detail()) is \(width)x\(rows) pixels, larger than a page allows (\(largestSide) a side)")
        }
        let result = RasterizedGlyph(
            width: width, height: rows, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Self.pixels(slot.pointee.advance.x), offset: coverage.count)
        guard width > 0, rows > 0, let buffer = bitmap.buffer else { return result }
        let pitch = Int(bitmap.pitch)
        // A negative pitch means the rows run upwards from the buffer's start.
        let top = pitch >= 0 ? buffer : buffer - pitch * (rows - 1)
        switch UInt32(bitmap.pixel_mode) {
        case FT_PIXEL_MODE_GRAY.rawValue:
            let levels = Int(bitmap.num_grays)
            for row in 0..<rows {
                let line = UnsafeBufferPointer(start: top + row * pitch, count: width)
                if levels == 256 {
                    coverage.append(contentsOf: line)
                } else {
                    let most = max(levels - 1, 1)
                    coverage.append(contentsOf: line.map { UInt8(min(Int($0) * 255 / most, 255)) })
                }
            }
        case FT_PIXEL_MODE_MONO.rawValue:
            for row in 0..<rows {
                let line = top + row * pitch
                for x in 0..<width { coverage.append(line[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 ? 255 : 0) }
            }
        default:
            throw .unsupportedGlyph("\(detail()) renders as FreeType pixel mode \(bitmap.pixel_mode), not 8-bit grey or 1-bit")
        }
        return result
    }

    /// The kerning between glyphs `left` and `right` in whole pixels (`FT_Get_Kerning`,
    /// `FT_KERNING_DEFAULT`: scaled and rounded by FreeType), 0 for a pair without.
    func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        var vector = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_KERNING_DEFAULT.rawValue, &vector) == 0 else { return 0 }
        return Self.pixels(vector.x)
    }

    /// A 26.6 fixed-point number rounded to whole pixels (halves up, as FreeType rounds).
    static func pixels(_ value: FT_Pos) -> Int {
        Int((value &+ 32) >> 6)
    }
}
