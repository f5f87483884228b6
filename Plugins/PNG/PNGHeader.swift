import Preload

/// The fields of a PNG's IHDR chunk, read without libpng from the first 33 bytes of a file.
package struct PNGHeader: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let bitDepth: Int
    package let colorType: Int

    /// Parses `bytes`, the start of a file; `nil` unless they hold a signature and an IHDR.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 26, bytes.starts(with: PNGDecoder.signature),
            bytes[12...15].elementsEqual("IHDR".utf8)
        else { return nil }
        let reader = ByteReader(bytes)
        guard let width = try? reader.bigEndian(at: 16, byteCount: 4, "IHDR's width"),
            let height = try? reader.bigEndian(at: 20, byteCount: 4, "IHDR's height")
        else { return nil }
        self.width = width
        self.height = height
        bitDepth = Int(bytes[24])
        colorType = Int(bytes[25])
    }

    /// The texture it decodes to with `options`: RGBA16 for 16-bit samples kept, else RGBA8.
    /// Its `ImageSize.byteCount` is `Int.max` when a hostile header's sides (up to 2³² - 1
    /// each) multiply past it; the decode then refuses the file by its limits.
    package func size(options: PNGLoaderSettings = PNGLoaderSettings()) -> ImageSize {
        ImageSize(width: width, height: height, pixelFormat: options.keepsSixteenBitSamples && bitDepth == 16 ? .rgba16 : .rgba8)
    }
}
