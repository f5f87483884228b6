/// QOI's op stream, decoded a chunk of pixels at a time: the position of the next op, the
/// previous pixel, what is left of a run, and the 64-entry index of pixels seen.
///
/// The hot loop reads bytes through an unsafe pointer without bounds checks only while at least
/// five bytes (the longest op) are left; the last few ops are copied into a zero-padded scratch
/// word first, and an op cut by the end of the input stops decoding. Output is written only
/// inside the `count` pixels the caller asks for: a run longer than that is carried to the
/// next chunk.
///
/// A pixel is a `UInt32` holding r in its low byte, then g, b and a, stored little-endian, so
/// that it lies in memory as RGBA8. An RGB file's ops still carry alpha (the index hashes it),
/// but its pixels are written opaque.
struct QOIOpStream {
    /// The longest op (`QOI_OP_RGBA`) in bytes.
    static let longestOp = 5
    /// 32-bit words of scratch memory ``init(input:start:scratch:)`` wants: the index, and two
    /// for an op copied from the end of the input.
    static let scratchWords = 66

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    /// Where the next op starts.
    private(set) var position: Int
    /// Pixels of the last run still to write.
    private(set) var pendingRun = 0
    private var pixel: UInt32 = 0xFF00_0000  // r = g = b = 0, a = 255: the spec's start
    private let index: UnsafeMutablePointer<UInt32>
    private let tail: UnsafeMutableRawPointer
    /// Or'ed into every pixel written: alpha 255 for an RGB file, nothing for RGBA.
    private let forcedAlpha: UInt32

    /// A stream of the ops in `input` from `start`, using `scratch` (``scratchWords`` words,
    /// alive as long as the stream) for its index and tail; `opaque` writes alpha 255.
    init(input: UnsafeBufferPointer<UInt8>, start: Int, opaque: Bool, scratch: UnsafeMutablePointer<UInt32>) {
        bytes = input.baseAddress!  // the caller read a header from it: never empty
        count = input.count
        position = start
        index = scratch
        index.initialize(repeating: 0, count: Self.scratchWords)
        tail = UnsafeMutableRawPointer(scratch + 64)
        forcedAlpha = opaque ? 0xFF00_0000 : 0
    }

    /// Decodes up to `pixels` pixels into `output` (`pixels * 4` bytes). Returns how many it
    /// wrote: `pixels`, or fewer if the ops ran out (the input ended, or an op was cut).
    mutating func decode(into output: UnsafeMutableRawPointer, pixels: Int) -> Int {
        var pixel = self.pixel
        var position = self.position
        var written = 0
        defer {
            self.pixel = pixel
            self.position = position
        }
        if pendingRun > 0 {
            let run = min(pendingRun, pixels)
            Self.fill(output, count: run, with: pixel | forcedAlpha)
            pendingRun -= run
            written = run
        }
        let bytes = self.bytes, count = self.count, index = self.index, opaque = forcedAlpha
        let fastEnd = count - (Self.longestOp - 1)  // an op starting before it is wholly inside
        while written < pixels {
            let op: UnsafePointer<UInt8>
            if position < fastEnd {
                op = bytes + position
            } else {
                guard position < count else { break }
                let length = Self.length(ofOp: bytes[position])
                guard length <= count - position else { break }
                tail.storeBytes(of: 0, as: UInt64.self)
                tail.copyMemory(from: bytes + position, byteCount: length)
                op = UnsafePointer(tail.assumingMemoryBound(to: UInt8.self))
            }
            let first = op[0]
            if first >= 0xFE {  // QOI_OP_RGB, QOI_OP_RGBA
                let word = UInt32(littleEndian: UnsafeRawPointer(op + 1).loadUnaligned(as: UInt32.self))
                if first == 0xFE {
                    pixel = word & 0x00FF_FFFF | pixel & 0xFF00_0000
                    position &+= 4
                } else {
                    pixel = word
                    position &+= 5
                }
            } else {
                switch first >> 6 {
                case 0:  // QOI_OP_INDEX
                    pixel = index[Int(first)]
                    position &+= 1
                case 1:  // QOI_OP_DIFF: each of r, g, b moves by -2...1 (biased by 254: -2 mod 256)
                    let code = UInt32(first)
                    pixel = Self.add(
                        pixel, red: (code >> 4 & 3) &+ 254, green: (code >> 2 & 3) &+ 254, blue: (code & 3) &+ 254)
                    position &+= 1
                case 2:  // QOI_OP_LUMA: green moves by -32...31, red and blue by green's move -8...7
                    let green = UInt32(first & 0x3F) &+ 224  // -32 mod 256
                    let second = UInt32(op[1])
                    pixel = Self.add(pixel, red: green &+ (second >> 4) &+ 248, green: green, blue: green &+ (second & 15) &+ 248)
                    position &+= 2
                default:  // QOI_OP_RUN: the previous pixel 1...62 times
                    position &+= 1
                    index[Self.hash(pixel)] = pixel
                    let run = Int(first & 0x3F) + 1
                    let room = pixels - written
                    if run > room {
                        Self.fill(output + written &* 4, count: room, with: pixel | opaque)
                        pendingRun = run - room
                        return pixels
                    }
                    Self.fill(output + written &* 4, count: run, with: pixel | opaque)
                    written &+= run
                    continue
                }
            }
            index[Self.hash(pixel)] = pixel
            (output + written &* 4).storeBytes(of: (pixel | opaque).littleEndian, as: UInt32.self)
            written &+= 1
        }
        return written
    }

    /// The bytes an op starting with `first` takes.
    @inline(__always)
    private static func length(ofOp first: UInt8) -> Int {
        switch first {
        case 0xFF: 5
        case 0xFE: 4
        case 0x80..<0xC0: 2
        default: 1
        }
    }

    /// QOI's index position, `(r * 3 + g * 5 + b * 7 + a * 11) % 64`, in one multiplication:
    /// the channels spread to 16-bit lanes (r, b, g, a at bits 0, 16, 32, 48), multiplied so
    /// that each one's weighted value lands at bit 56, where the sum's low byte is read; the
    /// other products stay below bit 54 and never carry into it.
    @inline(__always)
    static func hash(_ pixel: UInt32) -> Int {
        let wide = UInt64(pixel)
        let lanes = wide & 0x00FF_00FF | (wide & 0xFF00_FF00) << 24
        return Int(truncatingIfNeeded: (lanes &* 0x0300_0700_0500_0B00) >> 56) & 63
    }

    /// `pixel` with each of `red`, `green` and `blue` (below 1024) added to its channel modulo
    /// 256, alpha unchanged: two masked additions, one for r and b, one for g (and a, which
    /// gets nothing).
    @inline(__always)
    private static func add(_ pixel: UInt32, red: UInt32, green: UInt32, blue: UInt32) -> UInt32 {
        let redBlue = (pixel & 0x00FF_00FF) &+ (red | blue << 16)
        let greenAlpha = (pixel & 0xFF00_FF00) &+ green << 8
        return redBlue & 0x00FF_00FF | greenAlpha & 0xFF00_FF00
    }

    /// Writes `pixel` `count` times from `start`.
    @inline(__always)
    private static func fill(_ start: UnsafeMutableRawPointer, count: Int, with pixel: UInt32) {
        let stored = pixel.littleEndian
        var offset = 0
        let end = count &* 4
        while offset < end {
            start.storeBytes(of: stored, toByteOffset: offset, as: UInt32.self)
            offset &+= 4
        }
    }
}
