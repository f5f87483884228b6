import CPreloadGIF
import Preload

extension GIFDecoder {
    /// The rows of an interlaced image in the order the file holds them: every 8th row from 0,
    /// every 8th from 4, every 4th from 2, every 2nd from 1.
    static let interlacedPasses: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// One frame: its descriptor, its colour indexes row by row (giflib's LZW decoding), drawn
    /// on the canvas as its colour table and transparent index say, then its duration.
    mutating func readFrame() throws {
        let number = decoded.frames.count + 1
        guard library.imageDescriptor(gif) == PRELOAD_GIF_OK else {
            throw failure("frame \(number)'s image descriptor")
        }
        let image = gif.pointee.Image
        let left = Int(image.Left), top = Int(image.Top), width = Int(image.Width), height = Int(image.Height)
        guard width <= limits.maxWidth, height <= limits.maxHeight else {
            throw GIFError.tooLarge(detail: "frame \(number) is \(width)x\(height), larger than the limit \(limits)")
        }
        // The frames kept so far, the canvas and this frame's trim (at most the screen).
        let screenBytes = decoded.width * decoded.height * 4
        guard keptBytes + 2 * screenBytes <= limits.maxDecodedBytes else {
            throw GIFError.tooLarge(
                detail: "frame \(number) of the \(decoded.width)x\(decoded.height) screen would take the frames past the limit \(limits)")
        }
        let clipLeft = min(max(left, 0), decoded.width), clipTop = min(max(top, 0), decoded.height)
        let clipRight = max(min(left + width, decoded.width), clipLeft), clipBottom = max(min(top + height, decoded.height), clipTop)
        if clipLeft != left || clipTop != top || clipRight != left + width || clipBottom != top + height { overhanging.append(number) }
        let clipWidth = clipRight - clipLeft, clipHeight = clipBottom - clipTop
        framePixels.removeAll(keepingCapacity: true)
        framePixels.append(contentsOf: repeatElement(0, count: clipWidth * clipHeight * 4))
        if width == 0 || height == 0 {
            try passOverPixels(number)
        } else {
            let colours = palette(image.ColorMap ?? gif.pointee.SColorMap, frame: number)
            var used: UInt8 = 0
            var row = [UInt8](repeating: 0, count: width)
            let passes = image.Interlace ? Self.interlacedPasses : [(0, 1)]
            var rowsRead = 0
            for (start, step) in passes {
                for y in stride(from: start, to: height, by: step) {
                    guard library.line(gif, &row, Int32(width)) == PRELOAD_GIF_OK else {
                        throw failure("frame \(number)'s pixels (\(rowsRead) of \(height) rows read)")
                    }
                    rowsRead += 1
                    let screenY = top + y
                    guard screenY >= clipTop, screenY < clipBottom, clipWidth > 0 else { continue }
                    used |= Self.expand(
                        row, from: clipLeft - left, count: clipWidth, colours: colours,
                        into: &framePixels, at: (screenY - clipTop) * clipWidth * 4)
                }
            }
            let transparentPastTable = (control.transparentIndex ?? 0) >= colours.tableSize
            if Int(used) >= colours.tableSize, !transparentPastTable { pastTable.append(number) }
        }
        // The frame's trim is copied out of the canvas it shows on, before the disposal writes it.
        let (screenWidth, screenHeight) = (decoded.width, decoded.height)
        let trimmed = canvas.render(
            framePixels, width: clipWidth, height: clipHeight, x: clipLeft, y: clipTop, blend: .over, disposal: control.disposal
        ) { FramePacking.trim($0, width: screenWidth, height: screenHeight) }
        keptBytes += trimmed.bounds.width * trimmed.bounds.height * 4
        decoded.frames.append(trimmed)
        decoded.durations.append(control.delayCentiseconds <= 1 ? Self.shortDelayMilliseconds : control.delayCentiseconds * 10)
        control = Control()
    }

    /// The 256 colours a frame's indexes show as, packed RGBA (red in the low byte): its colour
    /// table's, opaque black past the table (as browsers show them), grays without a table (as
    /// Pillow shows them); the transparent index transparent.
    private mutating func palette(_ map: UnsafeMutablePointer<ColorMapObject>?, frame: Int) -> (table: [UInt32], tableSize: Int) {
        var table = [UInt32](repeating: 0xFF00_0000, count: 256)
        var size = 256
        if let map, let colors = map.pointee.Colors {
            size = min(Int(map.pointee.ColorCount), 256)
            for index in 0..<size {
                let colour = colors[index]
                table[index] = UInt32(colour.Red) | UInt32(colour.Green) << 8 | UInt32(colour.Blue) << 16 | 0xFF00_0000
            }
        } else {
            uncoloured.append(frame)
            for index in 0..<256 { table[index] = UInt32(index) * 0x01_0101 | 0xFF00_0000 }
        }
        if let transparent = control.transparentIndex, transparent < 256 { table[transparent] = 0 }
        return (table, size)
    }

    /// Writes `count` pixels of `row` from `from` as RGBA through `colours` into `pixels` at
    /// byte `offset`; returns every index written, or-ed together (past the table when it is at
    /// least the table's size, a power of two, unless the transparent index is past it too).
    @inline(__always)
    private static func expand(
        _ row: [UInt8], from: Int, count: Int, colours: (table: [UInt32], tableSize: Int), into pixels: inout [UInt8], at offset: Int
    ) -> UInt8 {
        var used: UInt8 = 0
        row.withUnsafeBufferPointer { indexes in
            colours.table.withUnsafeBufferPointer { table in
                pixels.withUnsafeMutableBytes { target in
                    let base = target.baseAddress! + offset
                    for column in 0..<count {
                        let index = indexes[from + column]
                        used |= index
                        base.storeBytes(of: table[Int(index)].littleEndian, toByteOffset: column * 4, as: UInt32.self)
                    }
                }
            }
        }
        return used
    }

    /// Reads past the LZW data of an image of no pixels.
    private func passOverPixels(_ number: Int) throws {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard library.codeStart(gif, &codeSize, &block) == PRELOAD_GIF_OK else {
            throw failure("frame \(number)'s pixels")
        }
        while block != nil {
            guard library.codeNext(gif, &block) == PRELOAD_GIF_OK else { throw failure("frame \(number)'s pixels") }
        }
    }
}
