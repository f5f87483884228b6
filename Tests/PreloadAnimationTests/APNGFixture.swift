import PreloadZlib

/// APNG files the tests build chunk by chunk from the APNG specification: RGBA8 frames, each
/// chunk with its CRC, sequence numbers counted across `fcTL` and `fdAT`. Tests change the chunk
/// list to make each kind of damage.
struct APNGFixture {
    /// One chunk: its four letters and its data (the CRC is computed when written).
    struct Chunk {
        var type: String
        var data: [UInt8]
        /// A CRC written in place of the right one.
        var badCRC = false
    }

    /// One frame: its RGBA8 pixels (`width * height * 4` bytes) and its `fcTL` fields.
    struct Frame {
        var width: Int
        var height: Int
        var x = 0
        var y = 0
        var pixels: [UInt8]
        var delay: (numerator: Int, denominator: Int) = (1, 10)
        var dispose: UInt8 = 0
        var blend: UInt8 = 0

        /// A `width` x `height` frame of one RGBA colour.
        static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8], x: Int = 0, y: Int = 0, dispose: UInt8 = 0, blend: UInt8 = 0) -> Frame {
            Frame(
                width: width, height: height, x: x, y: y, pixels: Array([[UInt8]](repeating: rgba, count: width * height).joined()), dispose: dispose,
                blend: blend)
        }
    }

    var chunks: [Chunk]

    /// An APNG of `frames` on a `width` x `height` canvas, played `plays` times: the first frame
    /// is the default image (`IDAT`) unless `defaultImage` gives a default image outside the
    /// animation; `promised` is `acTL`'s frame count (the frames' count unless told).
    static func animation(
        width: Int, height: Int, frames: [Frame], defaultImage: [UInt8]? = nil, plays: Int = 0, promised: Int? = nil
    ) throws -> APNGFixture {
        var chunks = [Chunk(type: "IHDR", data: be(width) + be(height) + [8, 6, 0, 0, 0])]
        chunks.append(Chunk(type: "acTL", data: be(promised ?? frames.count) + be(plays)))
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            if index == 0, let defaultImage {
                chunks.append(Chunk(type: "IDAT", data: try imageData(width: width, height: height, pixels: defaultImage)))
            }
            chunks.append(Chunk(type: "fcTL", data: frameControl(frame, sequence: sequence)))
            sequence += 1
            let data = try imageData(width: frame.width, height: frame.height, pixels: frame.pixels)
            if index == 0 && defaultImage == nil {
                chunks.append(Chunk(type: "IDAT", data: data))
            } else {
                chunks.append(Chunk(type: "fdAT", data: be(sequence) + data))
                sequence += 1
            }
        }
        chunks.append(Chunk(type: "IEND", data: []))
        return APNGFixture(chunks: chunks)
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let body = Array(chunk.type.utf8) + chunk.data
            let crc = body.withUnsafeBytes { Zlib.crc32($0) }
            file += Self.be(chunk.data.count) + body + Self.be(Int(chunk.badCRC ? ~crc : crc))
        }
        return file
    }

    /// The index of the `n`th chunk of `type`.
    func index(of type: String, _ n: Int = 0) -> Int {
        chunks.indices.filter { chunks[$0].type == type }[n]
    }

    /// An `fcTL`'s 26 bytes.
    static func frameControl(_ frame: Frame, sequence: Int) -> [UInt8] {
        be(sequence) + be(frame.width) + be(frame.height) + be(frame.x) + be(frame.y) + be16(frame.delay.numerator)
            + be16(frame.delay.denominator) + [frame.dispose, frame.blend]
    }

    /// RGBA8 `pixels` as PNG image data: each row behind filter byte 0, zlib-compressed.
    static func imageData(width: Int, height: Int, pixels: [UInt8]) throws -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<height { raw += [0] + pixels[row * width * 4..<(row + 1) * width * 4] }
        return try Zlib.compress(raw, level: 9)
    }

    static func be(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
}
