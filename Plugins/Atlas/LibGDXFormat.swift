import Preload

/// Reads libGDX's `.atlas` text format (also Spine's), both the current key layout (`bounds`,
/// `offsets`) and the legacy one (`xy` + `size`, `orig` + `offset`).
///
/// A page section starts with the page image's name and a blank line ends it; `key: v1, v2, ...`
/// lines follow each name. A rotated region is stored turned 90° counter-clockwise (libGDX's
/// packer draws it with `rotate(-90°)` in y-down space); `bounds`/`size` give its unrotated size.
/// Offsets measure `bottom` from the original's bottom edge. `rotate` is `true`/`false` or, as
/// Spine writes it, 0, 90, 180 or 270 degrees. Regions that share a name are an animation told
/// apart by `index`; when any region has one, regions are ordered by it (no index last), as
/// libGDX does. Lines may end in LF, CRLF or CR (the last two with a warning).
enum LibGDXFormat {
    private struct Region {
        var name: String
        var line: Int
        var x = 0, y = 0, width = 0, height = 0
        var offsetX = 0, offsetBottom = 0, originalWidth = 0, originalHeight = 0
        var degrees = 0
        var index = -1
        var split: [Int]?
        var pad: [Int]?
    }

    /// Whether `text` (a file's start) looks like a libGDX atlas: a page name then `size:`/`format:`,
    /// whatever the line ends.
    static func matches(_ header: [UInt8]) -> Bool {
        let lines = lines(of: String(decoding: header, as: UTF8.self)).lines
        return lines.contains { $0.hasPrefix("size:") || $0.hasPrefix("format:") || $0.hasPrefix("filter:") }
    }

    /// The text's lines, split at LF, CRLF or a lone CR (libGDX reads with `BufferedReader`,
    /// which takes all three; Swift's `"\r\n"` is one `Character`, so splitting at `"\n"` alone
    /// would not split a Windows file at all), and a warning naming any line end other than LF.
    static func lines(of text: String) -> (lines: [Substring], warning: AssetWarning?) {
        var crlf = 0, cr = 0
        let lines = text.split(omittingEmptySubsequences: false) { character in
            switch character {
            case "\n": return true
            case "\r\n": crlf += 1; return true
            case "\r": cr += 1; return true
            default: return false
            }
        }
        let kinds = [crlf > 0 ? "CRLF (Windows)" : nil, cr > 0 ? "lone CR" : nil].compactMap { $0 }
        let warning = kinds.isEmpty ? nil : AssetWarning(.atlasLineEnds, "\(kinds.joined(separator: " and ")) line ends")
        return (lines, warning)
    }

    static func read(_ data: [UInt8], file: String) throws -> AtlasDescription {
        // Binary data (a PNG named in --atlas, say) is not an atlas: refuse it before its bytes
        // become page names.
        guard !data.contains(0), String(validating: data, as: UTF8.self) != nil else {
            throw AtlasError.notAnAtlas(file: file, detail: "neither TexturePacker JSON nor libGDX text")
        }
        var description = AtlasDescription(file: file, format: .libgdx, pages: [], frames: [])
        var regions: [(region: Region, page: Int)] = []
        var text = String(decoding: data, as: UTF8.self)
        if text.first == "\u{FEFF}" {  // Windows editors start UTF-8 with a byte-order mark
            text.removeFirst()
            description.warnings.append(AssetWarning(.atlasByteOrderMark, "starts with a UTF-8 byte-order mark"))
        }
        let (split, lineEnds) = lines(of: text)
        let lines = split.map { $0.trimmingWhitespace() }
        if let lineEnds { description.warnings.append(lineEnds) }
        var number = 0
        // An optional header of `key: value` lines before the first page is ignored.
        while number < lines.count, lines[number].isEmpty { number += 1 }
        while number < lines.count, !lines[number].isEmpty, entry(lines[number]) != nil { number += 1 }

        var page: Int?
        var region: Region?
        func closeRegion() throws {
            guard let finished = region, let page else { return }
            regions.append((finished, page))
            region = nil
        }
        while number < lines.count {
            let line = lines[number]
            number += 1
            if line.isEmpty {
                try closeRegion()
                page = nil
            } else if let (key, values) = entry(line) {
                if region != nil {
                    try apply(key, values, to: &region!, file: file, line: number)
                } else if let page {
                    try applyPage(key, values, to: &description.pages[page], file: file, line: number)
                } else {
                    throw AtlasError.malformed(file: file, detail: "line \(number): '\(key)' outside any page")
                }
            } else if page == nil {
                description.pages.append(AtlasDescription.Page(path: AssetPath.resolve(line, relativeTo: file), nameAsWritten: line))
                page = description.pages.count - 1
            } else {
                try closeRegion()
                region = Region(name: line, line: number)
            }
        }
        try closeRegion()

        if regions.contains(where: { $0.region.index >= 0 }) {
            let ordered = regions.enumerated().sorted { lhs, rhs in
                let left = lhs.element.region.index < 0 ? Int.max : lhs.element.region.index
                let right = rhs.element.region.index < 0 ? Int.max : rhs.element.region.index
                return left != right ? left < right : lhs.offset < rhs.offset
            }
            regions = ordered.map(\.element)
        }
        guard !description.pages.isEmpty else {
            throw AtlasError.malformed(file: file, detail: "no page: not a libGDX atlas")
        }
        description.frames = try regions.map { try frame($0.region, page: $0.page, file: file) }
        return description
    }

    /// `key: v1, v2, ...`, or `nil` for a line that is a name.
    private static func entry(_ line: String) -> (String, [String])? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon].trimmingWhitespace()
        let values = line[line.index(after: colon)...].split(separator: ",").map { $0.trimmingWhitespace() }
        return (key, values)
    }

    /// `count` whole numbers from `values`; errors say `place` ("line 4", "region 'hero', line 4").
    private static func ints(_ values: [String], count: Int, key: String, file: String, place: String) throws -> [Int] {
        let numbers = values.compactMap { Int($0) }
        guard numbers.count >= count, values.count >= count else {
            throw AtlasError.malformed(file: file, detail: "\(place): '\(key)' needs \(count) whole numbers, got '\(values.joined(separator: ", "))'")
        }
        let limit = AtlasDescription.largestNumber
        if let wild = numbers.first(where: { !(-limit...limit).contains($0) }) {
            throw AtlasError.malformed(file: file, detail: "\(place): '\(key)' value \(wild) is out of range (at most \(limit) either way)")
        }
        return numbers
    }

    private static func applyPage(_ key: String, _ values: [String], to page: inout AtlasDescription.Page, file: String, line: Int) throws {
        guard key == "size" else { return }  // format, filter, repeat, pma: nothing to do for decoding
        let size = try ints(values, count: 2, key: key, file: file, place: "line \(line)")
        page.declaredWidth = size[0]
        page.declaredHeight = size[1]
    }

    private static func apply(_ key: String, _ values: [String], to region: inout Region, file: String, line: Int) throws {
        func numbers(_ count: Int) throws -> [Int] {
            try ints(values, count: count, key: key, file: file, place: "region '\(region.name)', line \(line)")
        }
        switch key {
        case "bounds":
            let v = try numbers(4)
            (region.x, region.y, region.width, region.height) = (v[0], v[1], v[2], v[3])
        case "xy":
            let v = try numbers(2)
            (region.x, region.y) = (v[0], v[1])
        case "size":
            let v = try numbers(2)
            (region.width, region.height) = (v[0], v[1])
        case "offsets":
            let v = try numbers(4)
            (region.offsetX, region.offsetBottom, region.originalWidth, region.originalHeight) = (v[0], v[1], v[2], v[3])
        case "offset":
            let v = try numbers(2)
            (region.offsetX, region.offsetBottom) = (v[0], v[1])
        case "orig":
            let v = try numbers(2)
            (region.originalWidth, region.originalHeight) = (v[0], v[1])
        case "rotate":
            // `true` is 90° (libGDX, Spine); Spine also writes the angle.
            switch values.first {
            case "true": region.degrees = 90
            case "false": region.degrees = 0
            default:
                region.degrees = try numbers(1)[0]
                guard [0, 90, 180, 270].contains(region.degrees) else {
                    throw AtlasError.unsupported(
                        file: file,
                        detail:
                            "region '\(region.name)', line \(line): 'rotate: \(values.joined(separator: ", "))'; only true, false, 0, 90, 180 and 270 are supported"
                    )
                }
            }
        case "index": region.index = try numbers(1)[0]
        case "split": region.split = try numbers(4)
        case "pad": region.pad = try numbers(4)
        default: break  // other name/value pairs carry nothing the model holds
        }
    }

    private static func frame(_ region: Region, page: Int, file: String) throws -> AtlasFrame {
        // Counter-clockwise as libGDX and spine-ts store it: 90° and 270° occupy the page turned
        // on their side, 180° upside down.
        let rotation: AtlasFrame.Rotation =
            switch region.degrees {
            case 90: .counterClockwise
            case 180: .upsideDown
            case 270: .clockwise
            default: .none
            }
        let sideways = rotation.swapsSides
        let originalWidth = region.originalWidth == 0 && region.originalHeight == 0 ? region.width : region.originalWidth
        let originalHeight = region.originalWidth == 0 && region.originalHeight == 0 ? region.height : region.originalHeight
        return AtlasFrame(
            name: region.name, page: page,
            rect: PixelRect(
                x: region.x, y: region.y,
                width: sideways ? region.height : region.width, height: sideways ? region.width : region.height),
            rotation: rotation,
            offsetX: region.offsetX, offsetY: originalHeight - region.offsetBottom - region.height,
            sourceWidth: originalWidth, sourceHeight: originalHeight,
            index: region.index >= 0 ? region.index : nil,
            nineSlice: region.split.map { NineSlice(left: $0[0], right: $0[1], top: $0[2], bottom: $0[3], padding: region.pad) })
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces, tabs and carriage returns.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
