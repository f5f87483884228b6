/// Multiplies colour by alpha in place, rounding to nearest: `c' = (c * a + 127) / 255`, as
/// the PNG plugin does.
enum QOIPremultiplication {
    /// Premultiplies `pixels` RGBA8 pixels starting at `start`.
    static func apply(to start: UnsafeMutableRawPointer, pixels: Int) {
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        for offset in stride(from: 0, to: pixels * 4, by: 4) {
            let alpha = UInt32(bytes[offset + 3])
            if alpha != 255 {
                for channel in 0..<3 {
                    bytes[offset + channel] = UInt8((UInt32(bytes[offset + channel]) * alpha + 127) / 255)
                }
            }
        }
    }
}
