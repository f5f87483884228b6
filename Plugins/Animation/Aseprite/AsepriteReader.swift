import Preload

/// Reads an Aseprite file's header, frames and chunks into an ``AsepriteDocument``, checking
/// every size against its container: a frame against the file, a chunk against its frame.
struct AsepriteReader {
    /// The header's magic number, at byte 4.
    static let magic: UInt16 = 0xA5E0
    /// Each frame header's magic number, at its byte 4.
    static let frameMagic: UInt16 = 0xF1FA

    let data: [UInt8]
    /// The most pixel bytes cels and frames may take together.
    let byteBudget: Int
    var document: AsepriteDocument
    var warnings: [AssetWarning] = []
    var decodedBytes = 0
    /// The header's frame count.
    var frameCount = 0
    /// Whether a new palette chunk (0x2019) was read: old ones (0x0004) are not read after it.
    var sawPalette = false
    /// Whose the next user data chunk is.
    var owner = AsepriteUserDataOwner.sprite
    /// The external files chunk's names, by entry id (properties maps name their extension by one).
    var externalFiles: [UInt32: String] = [:]
    /// The compressed cels inflated so far, by their stored length (``celPixels(_:count:what:)``):
    /// where in `data` each was stored, and its pixels.
    var inflatedCels: [Int: [(stored: Range<Int>, pixels: [UInt8])]] = [:]

    /// Whether `header` starts like an Aseprite file (its magic at byte 4).
    static func matches(_ header: [UInt8]) -> Bool {
        header.count >= 6 && header[4] == 0xE0 && header[5] == 0xA5
    }

    /// Reads `data`, refusing pixel memory past `byteBudget`.
    static func read(_ data: [UInt8], byteBudget: Int) throws -> (AsepriteDocument, [AssetWarning]) {
        var reader = try AsepriteReader(data: data, byteBudget: byteBudget)
        try reader.readFrames()
        return (reader.document, reader.warnings)
    }

    private init(data: [UInt8], byteBudget: Int) throws {
        self.data = data
        self.byteBudget = byteBudget
        let header = ByteReader(data)
        // The magic first: a file too short to hold it, or without it, is not an Aseprite file at all.
        guard data.count >= 6 else {
            throw AsepriteError.notAseprite(
                detail: "\(data.count) byte\(data.count == 1 ? "" : "s"), too short to hold the 0xA5E0 magic number at byte 4")
        }
        guard Self.matches(data) else { throw AsepriteError.notAseprite(detail: "no 0xA5E0 magic number at byte 4") }
        guard data.count >= 128 else {
            throw AsepriteError.truncated(detail: "the 128-byte header is cut short: the file has \(data.count) bytes")
        }
        let depthBits = Int(try header.littleEndian(at: 12, as: UInt16.self, "the colour depth"))
        guard let depth = AsepriteDocument.Depth(rawValue: depthBits) else {
            throw AsepriteError.unsupported(detail: "colour depth \(depthBits) bits per pixel (Aseprite writes 32, 16 or 8)")
        }
        document = AsepriteDocument(
            width: Int(try header.littleEndian(at: 8, as: UInt16.self, "the width")),
            height: Int(try header.littleEndian(at: 10, as: UInt16.self, "the height")), depth: depth,
            flags: try header.littleEndian(at: 14, as: UInt32.self, "the flags"), transparentIndex: Int(data[28]))
        guard document.width > 0, document.height > 0 else {
            throw AsepriteError.malformed(detail: "the canvas is \(document.width)x\(document.height)")
        }
        let declaredSize = Int(try header.littleEndian(at: 0, as: UInt32.self, "the file size"))
        if declaredSize != data.count {
            warnings.append(AssetWarning(.asepriteFileSize, "the header says \(declaredSize) bytes; the file has \(data.count)"))
        }
    }

    /// Reserves `count` pixel bytes of the budget, or throws naming `what`.
    mutating func reserve(_ count: Int, for what: @autoclosure () -> String) throws {
        decodedBytes += count
        guard count >= 0, decodedBytes <= byteBudget else {
            throw AsepriteError.unsupported(detail: "\(what()) takes the pixels past the \(byteBudget)-byte limit")
        }
    }

    private mutating func readFrames() throws {
        frameCount = Int(try ByteReader(data).littleEndian(at: 6, as: UInt16.self, "the frame count"))
        guard frameCount > 0 else { throw AsepriteError.malformed(detail: "the header says the file has no frames") }
        let (width, height, count) = (document.width, document.height, frameCount)
        try reserve(count * width * height * 4, for: "\(count) frames of \(width)x\(height)")
        var offset = 128
        var palette = AsepriteDocument.emptyPalette
        let headerColors = Int(try ByteReader(data).littleEndian(at: 32, as: UInt16.self, "the colour count"))
        var paletteCount = headerColors == 0 ? 256 : headerColors  // 0: 256, in old files
        for index in 0..<frameCount {
            let name = AsepriteChunkName(frame: index, of: frameCount)
            guard data.count - offset >= 16 else {
                throw AsepriteError.truncated(detail: "the header says \(frameCount) frames; the file ends before \(name)")
            }
            let header = ByteReader(data)
            let size = Int(try header.littleEndian(at: offset, as: UInt32.self, "\(name)'s size"))
            guard try header.littleEndian(at: offset + 4, as: UInt16.self, "\(name)'s magic") == Self.frameMagic else {
                throw AsepriteError.malformed(detail: "\(name) has no 0xF1FA magic number (byte \(offset + 4))")
            }
            guard size >= 16, size <= data.count - offset else {
                throw AsepriteError.truncated(detail: "\(name) says it has \(size) bytes; \(data.count - offset) are left")
            }
            let oldCount = Int(try header.littleEndian(at: offset + 6, as: UInt16.self, "\(name)'s chunk count"))
            let duration = Int(try header.littleEndian(at: offset + 8, as: UInt16.self, "\(name)'s duration"))
            let newCount = Int(try header.littleEndian(at: offset + 12, as: UInt32.self, "\(name)'s chunk count"))
            document.frames.append(AsepriteDocument.Frame(durationMilliseconds: duration, palette: palette, paletteCount: paletteCount))
            try readChunks(count: newCount != 0 ? newCount : oldCount, in: offset + 16..<offset + size, frame: index, name: name)
            palette = document.frames[index].palette
            paletteCount = document.frames[index].paletteCount
            offset += size
        }
        if offset != data.count {
            warnings.append(AssetWarning(.asepriteFileSize, "\(data.count - offset) bytes after the last frame are not read"))
        }
    }

    private mutating func readChunks(count: Int, in range: Range<Int>, frame: Int, name: AsepriteChunkName) throws {
        var offset = range.lowerBound
        for number in 0..<count {
            let chunk = name.chunk(number, of: count)
            guard range.upperBound - offset >= 6 else {
                throw AsepriteError.malformed(detail: "\(chunk) starts past the frame's end (byte \(range.upperBound))")
            }
            let size = Int(try ByteReader(data).littleEndian(at: offset, as: UInt32.self, "\(chunk)'s size"))
            let type = try ByteReader(data).littleEndian(at: offset + 4, as: UInt16.self, "\(chunk)'s type")
            guard size >= 6, size <= range.upperBound - offset else {
                throw AsepriteError.malformed(detail: "\(chunk) says it has \(size) bytes, past the frame's end (byte \(range.upperBound))")
            }
            let body = ByteReader(data[offset + 6..<offset + size])
            switch type {
            case 0x0004 where !sawPalette:  // as Aseprite: old palette chunks only until a new one, in any frame
                document.frames[frame].palette = try Self.oldPalette(body, onto: document.frames[frame].palette, chunk: chunk)
            case 0x2019:
                (document.frames[frame].palette, document.frames[frame].paletteCount) = try Self.palette(
                    body, onto: document.frames[frame].palette, count: document.frames[frame].paletteCount, chunk: chunk)
                sawPalette = true
            case 0x2004:
                document.layers.append(try Self.layer(body, chunk: chunk))
                owner = .layer(document.layers.count - 1)
            case 0x2005:
                let cel = try cel(body, chunk: chunk)
                document.frames[frame].cels.append(cel)
                owner = .cel(frame: frame, layer: cel.layer)
            case 0x2018:
                let tags = try Self.tags(body, frameCount: frameCount, chunk: chunk)
                owner = tags.isEmpty ? .nothing : .tag(document.tags.count)
                document.tags += tags
            case 0x2020:
                let (data, unreadProperties) = try Self.userData(body, extensions: externalFiles, chunk: chunk)
                if let unreadProperties { document.propertiesNotRead.append(unreadProperties) }
                attach(data)
            case 0x2022:
                document.slices.append(try Self.slice(body, chunk: chunk))
                owner = .slice(document.slices.count - 1)
            case 0x2021: document.unread["old slices", default: 0] += 1
            case 0x2023:
                let (id, tileset) = try tileset(body, chunk: chunk)
                document.tilesets[id] = tileset
                owner = .tileset
            case 0x2008: externalFiles.merge(try Self.externalFiles(body, chunk: chunk)) { $1 }
            default: break  // colour profile, cel extra, masks: nothing a frame's pixels need
            }
            offset += size
        }
    }
}
