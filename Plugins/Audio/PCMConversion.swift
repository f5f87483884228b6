#if canImport(Glibc)
    import Glibc
#endif

/// Converts WAV samples to the sample format a request asks for, with libsndfile's rules (so a
/// WAV decodes here exactly as libsndfile would read it, normalised, with clipping):
///
/// | from      | to `int16`                     | to `float32`              |
/// |-----------|--------------------------------|---------------------------|
/// | u8        | (x − 128) · 256                | (x − 128) / 128           |
/// | s16       | x                              | x / 32768                 |
/// | s24       | x >> 8 (the top 16 bits)       | x / 2²³                   |
/// | s32       | x >> 16                        | Float(x) / 2³¹            |
/// | float     | x · 32767, rounded, clipped    | x                         |
/// | double    | as float, after Float(x)       | Float(x)                  |
///
/// The float-to-`int16` rule is also the one applied to Opus's float output (libsndfile's own
/// 16-bit Opus and Vorbis output wraps around instead of clipping); Vorbis and MP3 give 16-bit
/// samples from their libraries' own conversion.
enum PCMConversion {
    /// Converts `samples` samples stored as `encoding` at `source` to `format` at `destination`.
    static func convert(
        _ source: UnsafeRawPointer, encoding: WAVFile.SampleEncoding, samples: Int, to format: AudioSampleFormat,
        destination: UnsafeMutableRawPointer
    ) {
        switch format {
        case .int16: toInt16(source, encoding: encoding, samples: samples, destination.assumingMemoryBound(to: Int16.self))
        case .float32: toFloat(source, encoding: encoding, samples: samples, destination.assumingMemoryBound(to: Float.self))
        }
    }

    private static func toInt16(_ source: UnsafeRawPointer, encoding: WAVFile.SampleEncoding, samples: Int, _ out: UnsafeMutablePointer<Int16>) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        switch encoding {
        case .unsigned8:
            for i in 0..<samples { out[i] = Int16(truncatingIfNeeded: (Int32(bytes[i]) - 128) << 8) }
        case .signed16:
            for i in 0..<samples { out[i] = Int16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) }
        case .signed24:
            for i in 0..<samples { out[i] = Int16(truncatingIfNeeded: Int32(bytes[3 * i + 1]) | Int32(Int8(bitPattern: bytes[3 * i + 2])) << 8) }
        case .signed32:
            for i in 0..<samples {
                out[i] = Int16(truncatingIfNeeded: Int32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) >> 16)
            }
        case .float32:
            for i in 0..<samples {
                out[i] = clippedInt16(Float(bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))))
            }
        case .float64:
            for i in 0..<samples {
                out[i] = clippedInt16(
                    Float(Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)))))
            }
        }
    }

    private static func toFloat(_ source: UnsafeRawPointer, encoding: WAVFile.SampleEncoding, samples: Int, _ out: UnsafeMutablePointer<Float>) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        switch encoding {
        case .unsigned8:
            for i in 0..<samples { out[i] = Float(Int32(bytes[i]) - 128) * (1 / 128) }
        case .signed16:
            for i in 0..<samples { out[i] = Float(Int16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) * (1 / 32768) }
        case .signed24:
            for i in 0..<samples {
                let value = Int32(bytes[3 * i]) | Int32(bytes[3 * i + 1]) << 8 | Int32(Int8(bitPattern: bytes[3 * i + 2])) << 16
                out[i] = Float(value) * (1 / 8_388_608)
            }
        case .signed32:
            for i in 0..<samples {
                out[i] = Float(Int32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))) * (1 / 2_147_483_648)
            }
        case .float32:
            for i in 0..<samples {
                out[i] = Float(bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
        case .float64:
            for i in 0..<samples {
                out[i] = Float(Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))))
            }
        }
    }

    /// Float samples to 16-bit: `x · 32767` rounded to nearest (ties to even, as `lrintf`),
    /// clipped to the 16-bit range; NaN gives 0.
    static func floatToInt16(_ source: UnsafePointer<Float>, count: Int, _ out: UnsafeMutablePointer<Int16>) {
        for i in 0..<count { out[i] = clippedInt16(source[i]) }
    }

    @inline(__always)
    static func clippedInt16(_ value: Float) -> Int16 {
        let scaled = (value * 32767).rounded(.toNearestOrEven)
        if scaled >= 32767 { return 32767 }
        if scaled <= -32768 { return -32768 }
        return scaled == scaled ? Int16(scaled) : 0
    }
}
