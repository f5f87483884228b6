import CSDL2
import Preload

/// Uploads of large textures spread over frames, a band of rows at a time, so that no frame
/// spends much more than its budget on one 2048×2048 page (16 MiB, ~10 ms to copy in one go).
///
/// `SDL_UpdateTexture` takes a rectangle, so a texture is made at once and filled band by band;
/// the `Texture` stays alive here until its last band is copied (its CPU copy is freed then,
/// even though the store already let go of it at hand-over). Unity's time-sliced upload works
/// the same way. A block-compressed texture that the GPU cannot take as it is goes the same
/// way, each band of block rows decoded to RGBA8 just before it is copied (`CPUBlockDecoding`).
///
/// Each texture carries its share of the weight of the hand-off item it came in
/// (`AssetHandOff.Item.progressWeight`, shared among the item's textures by their bytes), so that
/// what is still on its way is counted in the batch's progress units (`pendingWeight`).
struct StripUploads {
    /// A texture being filled.
    private struct Job {
        let source: Texture
        let target: OpaquePointer
        /// What decodes the source's blocks, when it is block-compressed.
        let decoding: CPUBlockDecoding?
        var nextRow = 0
        /// Its share of its item's progress weight.
        var weight = 0.0

        /// Rows copied per step: about `bandBytes` of RGBA8 (`decodedBandBytes` when decoded
        /// first, which costs more than the copy), whole rows of blocks.
        var rowsPerBand: Int {
            let step = source.pixelFormat.blockHeight
            let bytes = decoding == nil ? StripUploads.bandBytes : StripUploads.decodedBandBytes
            return max(step, bytes / (source.width * 4) / step * step)
        }
    }

    /// Textures at most this large (in RGBA8) are copied in one go.
    static let wholeUploadLimit = 1 << 20
    /// Rows copied per step: about 256 KiB of pixels.
    private static let bandBytes = 256 << 10
    /// Rows decoded and copied per step: about 64 KiB of pixels.
    private static let decodedBandBytes = 64 << 10

    private var jobs: [Job] = []
    /// The item being uploaded: where its jobs start, and its textures' bytes so far.
    private var item = (firstJob: 0, bytes: 0)

    /// Whether every texture handed over so far has all its pixels on the GPU.
    var isIdle: Bool { jobs.isEmpty }

    /// Progress units handed over whose rows are not on the GPU yet.
    var pendingWeight: Double { jobs.reduce(0) { $0 + $1.weight * Double($1.source.height - $1.nextRow) / Double($1.source.height) } }

    /// The textures filled from now on come in one hand-off item.
    mutating func beginItem() {
        item = (jobs.count, 0)
    }

    /// The item's textures are all made: those still being filled share its `weight` by their bytes.
    mutating func endItem(weight: Int64) {
        guard item.bytes > 0 else { return }
        for index in item.firstJob..<jobs.count {
            jobs[index].weight = Double(weight) * Double(jobs[index].source.byteCount) / Double(item.bytes)
        }
    }

    /// Fills `target` with `source`'s pixels (level 0): now if small, otherwise over the next
    /// calls to `continue(until:)`; a block-compressed source, decoded with `decoding`, always
    /// over those calls, so that decoding stays within the frames' budget too.
    mutating func fill(_ target: OpaquePointer, with source: Texture, decodingWith decoding: CPUBlockDecoding? = nil) {
        let job = Job(source: source, target: target, decoding: decoding)
        item.bytes += source.byteCount
        if decoding == nil, source.width * source.height * 4 <= Self.wholeUploadLimit {
            Self.copy(job, rows: source.height)
        } else {
            jobs.append(job)
        }
    }

    /// Copies bands until `deadline` or until nothing is left, at least one band per call.
    mutating func `continue`(until deadline: ContinuousClock.Instant) {
        var first = true
        while !jobs.isEmpty, first || ContinuousClock.now < deadline {
            first = false
            let job = jobs[0]
            let rows = min(job.rowsPerBand, job.source.height - job.nextRow)
            Self.copy(job, rows: rows)
            jobs[0].nextRow += rows
            if jobs[0].nextRow == job.source.height { jobs.removeFirst() }
        }
    }

    /// Copies `rows` rows of `job`'s source from its next row into its target.
    private static func copy(_ job: Job, rows: Int) {
        var band = SDL_Rect(x: 0, y: Int32(job.nextRow), w: Int32(job.source.width), h: Int32(rows))
        guard let decoding = job.decoding else {
            job.source.pixels.withUnsafeBytes { pixels in
                let start = pixels.baseAddress! + job.nextRow * job.source.bytesPerRow
                _ = SDL_UpdateTexture(job.target, &band, start, Int32(job.source.bytesPerRow))
            }
            return
        }
        do {
            let decoded = try decoding.decode(job.source, rows: job.nextRow, count: rows)
            _ = SDL_UpdateTexture(job.target, &band, decoded, Int32(job.source.width * 4))
        } catch {
            Options.fail("decoding a \(job.source.width)x\(job.source.height) \(job.source.pixelFormat) texture: \(error)", status: 1)
        }
    }
}
