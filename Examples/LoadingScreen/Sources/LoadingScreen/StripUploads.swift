import CSDL2
import Preload

/// Uploads of large textures spread over frames, a band of rows at a time, so that no frame
/// spends much more than its budget on one 2048×2048 page (16 MiB, ~10 ms to copy in one go).
///
/// `SDL_UpdateTexture` takes a rectangle, so a texture is made at once and filled band by band;
/// the `Texture` stays alive here until its last band is copied (its CPU copy is freed then,
/// even though the store already let go of it at hand-over). Unity's time-sliced upload works
/// the same way.
struct StripUploads {
    /// A texture being filled.
    private struct Job {
        let source: Texture
        let target: OpaquePointer
        var nextRow = 0
    }

    /// Textures at most this large are copied in one go.
    static let wholeUploadLimit = 1 << 20
    /// Rows copied per step: about 256 KiB of pixels.
    private static let bandBytes = 256 << 10

    private var jobs: [Job] = []

    /// Whether every texture handed over so far has all its pixels on the GPU.
    var isIdle: Bool { jobs.isEmpty }

    /// Bytes handed over whose rows are not on the GPU yet.
    var pendingBytes: Int { jobs.reduce(0) { $0 + ($1.source.height - $1.nextRow) * $1.source.bytesPerRow } }

    /// Fills `target` with `source`'s pixels: now if small, otherwise over the next calls to
    /// `continue(until:)`.
    mutating func fill(_ target: OpaquePointer, with source: Texture) {
        if source.byteCount <= Self.wholeUploadLimit {
            source.pixels.withUnsafeBytes { _ = SDL_UpdateTexture(target, nil, $0.baseAddress, Int32(source.bytesPerRow)) }
        } else {
            jobs.append(Job(source: source, target: target))
        }
    }

    /// Copies bands until `deadline` or until nothing is left, at least one band per call.
    mutating func `continue`(until deadline: ContinuousClock.Instant) {
        var first = true
        while !jobs.isEmpty, first || ContinuousClock.now < deadline {
            first = false
            let job = jobs[0]
            let rows = min(max(1, Self.bandBytes / job.source.bytesPerRow), job.source.height - job.nextRow)
            var band = SDL_Rect(x: 0, y: Int32(job.nextRow), w: Int32(job.source.width), h: Int32(rows))
            job.source.pixels.withUnsafeBytes { pixels in
                let start = pixels.baseAddress! + job.nextRow * job.source.bytesPerRow
                _ = SDL_UpdateTexture(job.target, &band, start, Int32(job.source.bytesPerRow))
            }
            jobs[0].nextRow += rows
            if jobs[0].nextRow == job.source.height { jobs.removeFirst() }
        }
    }
}
