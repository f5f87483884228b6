/// Where an ``ImageDecoder`` writes one image's pixels, and how it hears of cancellation and
/// reports progress: made by ``ImageLoader`` (or ``ImageDecoder/decode(_:options:memory:isCancelled:progress:warn:)-(AssetBytes,_,_,_,_,_)``)
/// for one decode, after the size passed the limits. Valid only during
/// ``ImageDecoder/decode(_:header:options:into:)``: do not keep it.
///
/// The pixel memory comes from the coordinator's pool and is written in place (no second
/// copy). Premultiplication, when the options ask for it, happens here once for every format:
/// on the bytes a decoder declares final with ``pixelsFinal(upTo:)`` as it goes (while they are
/// still in cache), and on the rest when ``writePixels(_:)`` returns.
public final class ImageDecodeTarget {
    /// The size the header declared and the limits allowed: ``ImageSize/byteCount`` bytes to write.
    public let size: ImageSize
    private let premultiplies: Bool
    private let memory: AssetMemory
    private let cancelled: () -> Bool
    private let progressed: (Double) -> Void
    /// The pixel memory while ``writePixels(_:)`` runs.
    private var buffer: UnsafeMutableRawBufferPointer?
    /// How many leading bytes are premultiplied already.
    private var premultipliedBytes = 0
    /// The pixels, once ``writePixels(_:)`` returned.
    private(set) var pixels: AssetBytes?

    init(size: ImageSize, premultiplies: Bool, memory: AssetMemory, isCancelled: @escaping () -> Bool, progress: @escaping (Double) -> Void) {
        self.size = size
        self.premultiplies = premultiplies
        self.memory = memory
        cancelled = isCancelled
        progressed = progress
    }

    /// Whether the load was cancelled: poll it between chunks, and throw `CancellationError`
    /// when it turns true.
    public var isCancelled: Bool { cancelled() }

    /// Throws `CancellationError` if the load was cancelled.
    public func checkCancellation() throws {
        if cancelled() { throw CancellationError() }
    }

    /// Reports the fraction of the decode done, from 0 to 1 (the final 1.0 is implied by returning).
    public func reportProgress(_ fraction: Double) {
        progressed(fraction)
    }

    /// Allocates the image's ``ImageSize/byteCount`` bytes (uninitialized, pooled) and calls
    /// `body` to write every one of them; then premultiplies what ``pixelsFinal(upTo:)`` has
    /// not, if the options ask. Call it once, after the checks that must come before the pixel
    /// memory exists. If `body` throws, the memory goes back to the pool.
    public func writePixels(_ body: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        try writePixels(workingCapacity: size.byteCount, body)
    }

    /// ``writePixels(_:)`` with room to work in: `body` gets `workingCapacity` bytes (at least
    /// ``ImageSize/byteCount``) and must leave the pixels in the first ``ImageSize/byteCount``.
    /// For a decoder that expands data in place: PNG's fast path inflates an image's filtered
    /// rows (a byte a row longer than the pixels') into this memory and unfilters them where they
    /// lie, so no second buffer the size of the image exists.
    public func writePixels(workingCapacity: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        precondition(pixels == nil, "ImageDecodeTarget.writePixels called twice")
        let byteCount = size.byteCount
        pixels = try AssetBytes(unsafeUninitializedCapacity: max(workingCapacity, byteCount), memory: memory) { buffer, count in
            self.buffer = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
            defer { self.buffer = nil }
            try body(buffer)
            pixelsFinal(upTo: byteCount)
            count = byteCount
        }
    }

    /// Says the first `byteCount` bytes (whole pixels) hold their final values: when the
    /// options ask for premultiplied alpha, the ones not yet premultiplied are now, while they
    /// are in cache. Optional: whatever is left is premultiplied when ``writePixels(_:)``'s
    /// body returns. An interlaced image calls it only once every pass is done.
    public func pixelsFinal(upTo byteCount: Int) {
        guard premultiplies, let buffer, let start = buffer.baseAddress, byteCount > premultipliedBytes else { return }
        let end = min(byteCount, buffer.count)
        Premultiplication.apply(
            to: start.assumingMemoryBound(to: UInt8.self) + premultipliedBytes, count: end - premultipliedBytes, format: size.pixelFormat)
        premultipliedBytes = end
    }
}
