/// Multiplies colour by alpha in place, rounding to nearest: `c' = (c * a + 127) / 255`, as the
/// PNG plugin does (libwebp's own premultiplied modes round differently).
enum Premultiplication {
    /// Premultiplies `count` bytes of whole RGBA8 pixels starting at `start`.
    static func apply(to start: UnsafeMutablePointer<UInt8>, count: Int) {
        var offset = 0
        while offset < count {
            let alpha = UInt32(start[offset + 3])
            if alpha != 255 {
                for channel in 0..<3 {
                    start[offset + channel] = UInt8((UInt32(start[offset + channel]) * alpha + 127) / 255)
                }
            }
            offset += 4
        }
    }
}
