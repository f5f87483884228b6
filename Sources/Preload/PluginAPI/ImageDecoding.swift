extension ImageDecoder {
    /// Decodes `data`, a whole file of this format, into a `Texture`: what ``ImageLoader`` does
    /// for each file, outside any coordinator.
    ///
    /// Reads the header, checks the size it declares against `options.limits` (throwing
    /// ``ImageLimitExceeded`` before any pixel memory exists), decodes the pixels into `memory`,
    /// premultiplies them if `options.alphaMode` asks, then passes each irregularity the file
    /// was forgiven to `warn`.
    /// - Parameters:
    ///   - data: the file's bytes, from its start to its end.
    ///   - options: alpha mode, limits, the format's own settings.
    ///   - memory: where large pixel buffers come from (see `AssetMemory`).
    ///   - isCancelled: polled between chunks; when it returns true the decode stops and throws
    ///     `CancellationError`.
    ///   - progress: called with the fraction done, for images decoded in more than one chunk
    ///     (the final 1.0 is implied by returning).
    ///   - warn: called with each irregularity the file was forgiven, after the pixels are
    ///     decoded; throwing fails the decode.
    public static func decode(
        _ data: AssetBytes, options: ImageLoaderSettings<Self> = .defaultValue, memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try data.withUnsafeBufferPointer { file in
            let header = try readHeader(file, options: options)
            let size = size(of: header, options: options)
            try options.limits.check(size)
            let (pixels, warnings) = try withoutActuallyEscaping(isCancelled) { isCancelled in
                try withoutActuallyEscaping(progress) { progress in
                    let target = ImageDecodeTarget(
                        size: size, premultiplies: options.alphaMode == .premultiplied && !size.isOpaque, memory: memory,
                        isCancelled: isCancelled, progress: progress)
                    let warnings = try decode(file, header: header, options: options, into: target)
                    guard let pixels = target.pixels else {
                        preconditionFailure("\(Self.self).decode returned without writing pixels (ImageDecodeTarget.writePixels)")
                    }
                    return (pixels, warnings)
                }
            }
            for warning in warnings { try warn(warning) }
            return Texture(width: size.width, height: size.height, pixelFormat: size.pixelFormat, alphaMode: options.alphaMode, pixels: pixels)
        }
    }

    /// Decodes `data`, a whole file of this format, held in an array (not copied).
    public static func decode(
        _ data: [UInt8], options: ImageLoaderSettings<Self> = .defaultValue, memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try decode(AssetBytes(data), options: options, memory: memory, isCancelled: isCancelled, progress: progress, warn: warn)
    }
}
