/// Multiplies colour by alpha in place, rounding to nearest: `c' = (c * a + max / 2) / max`: what
/// every image plugin does for ``AlphaMode/premultiplied`` (libraries' own premultiplied modes
/// round differently), so the same picture premultiplies the same from any format.
///
/// An image plugin calls it on the pixels it decoded when the request's options ask for
/// ``AlphaMode/premultiplied``, instead of its library's own premultiplication.
public enum Premultiplication {
    /// Premultiplies `count` bytes of whole pixels starting at `start`, in place: `count` is a
    /// multiple of the format's ``PixelFormat/bytesPerPixel``. Opaque pixels are left as they are.
    public static func apply(to start: UnsafeMutablePointer<UInt8>, count: Int, format: PixelFormat) {
        switch format {
        case .rgba8:
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
        case .rgba16:
            UnsafeMutableRawPointer(start).withMemoryRebound(to: UInt16.self, capacity: count / 2) { samples in
                var offset = 0
                while offset < count / 2 {
                    let alpha = UInt64(samples[offset + 3])
                    if alpha != 65535 {
                        for channel in 0..<3 {
                            samples[offset + channel] = UInt16((UInt64(samples[offset + channel]) * alpha + 32767) / 65535)
                        }
                    }
                    offset += 4
                }
            }
        case .bc1, .bc3, .bc4, .bc5, .bc7, .astc4x4, .astc5x5, .astc6x6, .astc8x8:
            // Blocks are premultiplied before they are encoded (a GPU bake's job), never after.
            preconditionFailure("premultiplying \(format) blocks")
        }
    }
}
