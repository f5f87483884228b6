import CPreloadWebP

/// Decodes one WebP bitstream into RGBA8 rows the caller owns, with libwebp's incremental
/// decoder writing straight into them (external memory: no second copy), fed the bitstream a
/// chunk at a time so that a load can stop between chunks and report the rows done.
///
/// libwebp's one-call decode cannot be stopped. Fed in chunks, its lossless decoder goes back to
/// its last saved row (every 8 rows) whenever a chunk ends mid-row, so every chunk costs a few
/// rows decoded twice: hence at most one chunk per 256 rows, and at most 16. A 256x256 sprite is
/// one chunk (one `WebPIUpdate` call: 0.15% more CPU time than `WebPDecodeRGBAInto` on the
/// benchmark's 2,000 sprites); a 4096x4096 image is 16 (1.3% more than the one-call decode).
enum IncrementalDecoding {
    /// Rows of the image per chunk of its bitstream, at least.
    static let rowsPerChunk = 256
    /// Chunks per image, at most.
    static let maxChunks = 16

    /// Decodes `bitstream` (a whole file, or one animation frame's `ALPH`/`VP8 `/`VP8L` chunks),
    /// an image `height` rows tall, into `destination`: `stride` bytes a row, room for
    /// `byteCount` bytes (libwebp refuses to start if its rows do not fit).
    /// - Parameters:
    ///   - isCancelled: polled before each chunk; when it returns true the decode stops and
    ///     throws `CancellationError`.
    ///   - progress: called after each chunk but the last with the fraction of rows done.
    /// - Throws: ``WebPDecodeError`` naming the row reached, `MissingSystemLibrary` when libwebp
    ///   is not installed, or `CancellationError`. The rows
    ///   may then be partly written: the caller throws them away.
    static func decode(
        _ bitstream: UnsafeBufferPointer<UInt8>, height: Int,
        into destination: UnsafeMutablePointer<UInt8>, stride: Int, byteCount: Int,
        isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws {
        let libwebp = try WebPLibrary.get()
        let output = UnsafeMutablePointer<WebPDecBuffer>.allocate(capacity: 1)  // must outlive the decoder
        defer { output.deallocate() }
        guard libwebp.initDecBuffer(output) else {
            throw WebPDecodeError.unsupported(
                "the installed libwebp (version \(String(libwebp.version, radix: 16))) does not share this plugin's decoder ABI")
        }
        output.pointee.colorspace = MODE_RGBA
        output.pointee.is_external_memory = 1
        output.pointee.u.RGBA.rgba = destination
        output.pointee.u.RGBA.stride = Int32(stride)
        output.pointee.u.RGBA.size = byteCount
        guard let decoder = libwebp.newDecoder(output) else { throw WebPDecodeError.outOfMemory }
        defer { libwebp.delete(decoder) }

        let chunks = min(maxChunks, max(1, height / rowsPerChunk))
        let chunkBytes = max(1, (bitstream.count + chunks - 1) / chunks)
        var fed = 0
        var status = VP8_STATUS_SUSPENDED
        while status == VP8_STATUS_SUSPENDED && fed < bitstream.count {
            if isCancelled() { throw CancellationError() }
            fed = min(bitstream.count, fed + chunkBytes)
            status = libwebp.update(decoder, bitstream.baseAddress, fed)
            if status == VP8_STATUS_SUSPENDED && fed < bitstream.count {
                progress(Double(rowsDone(decoder, libwebp)) / Double(height))
            }
        }
        guard status != VP8_STATUS_OK else { return }
        let rows = rowsDone(decoder, libwebp)
        let place = rows == 0 ? "before the first row" : "after row \(rows) of \(height)"
        throw WebPDecodeError(status: status, context: "\(place) (\(bitstream.count) bytes of image data)")
    }

    /// How many rows, from the top, `decoder` has written in full.
    private static func rowsDone(_ decoder: OpaquePointer, _ libwebp: WebPLibrary) -> Int {
        var lastRow: Int32 = 0
        return libwebp.decodedRows(decoder, &lastRow, nil, nil, nil) == nil ? 0 : Int(lastRow)
    }
}
