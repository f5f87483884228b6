import Foundation
import Preload

/// What the command shows of a texture: its size and format, whether the texture is still in
/// memory or was released after the `--memory-budget` consumer took it over.
struct TextureFacts: Sendable {
    var width: Int
    var height: Int
    var pixelFormat: PixelFormat
    var mipLevelCount: Int

    init(_ texture: Texture) {
        width = texture.width
        height = texture.height
        pixelFormat = texture.pixelFormat
        mipLevelCount = texture.mipLevelCount
    }

    /// `64x64 rgba8`, `256x256 bc7, 9 levels`.
    var shown: String { "\(width)x\(height) \(pixelFormat)" + (mipLevelCount > 1 ? ", \(mipLevelCount) levels" : "") }
}

extension AssetResult {
    /// The texture's facts, for a loaded texture (or one released after its hand-over).
    var textureFacts: TextureFacts? {
        switch outcome.asset {
        case let texture as Texture: TextureFacts(texture)
        case let released as HandedOverAsset: released.handle as? TextureFacts
        default: nil
        }
    }

    /// The bytes the asset holds, or held before it was released.
    var shownBytes: Int {
        (outcome.asset as? HandedOverAsset)?.releasedByteCount ?? outcome.asset?.byteCount ?? 0
    }
}

/// `preload --memory-budget`: a thread that takes each loaded texture over as the batch hands it
/// on, computes its checksum (with `--checksum`) and keeps only its facts, so that its pixels are
/// freed and the batch can admit the next loads. Atlases and packs are taken over too (freeing
/// their share of the budget) but kept whole, for the summary's details.
final class BudgetedConsumer: Sendable {
    let handOff = AssetHandOff(releasesCPUCopies: true)
    private let checksums: Bool
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    private let pixelDigests = Locked([String: String]())

    init(checksums: Bool) {
        self.checksums = checksums
        Thread.detachNewThread { [self] in
            while !stopped.withLock({ $0 }) {
                _ = handOff.waitForArrival(timeout: .milliseconds(20))
                handOff.drain(budget: .seconds(3600)) { take($0) }
            }
            handOff.drain(budget: .seconds(3600)) { take($0) }
            finished.signal()
        }
    }

    /// The batch options that send assets here, within `budget` bytes.
    func options(_ options: PreloadOptions, budget: Int) -> PreloadOptions {
        var options = options
        options.storesAssets = false
        options.handOff = handOff
        options.completesAfterHandOff = true
        options.memoryBudget = budget
        return options
    }

    private func take(_ item: AssetHandOff.Item) -> (any Sendable)? {
        guard let texture = item.asset as? Texture else { return nil }
        if checksums {
            let digest = AssetDigests.sha256(texture.pixels)
            pixelDigests.withLock { $0[item.path] = digest }
        }
        return TextureFacts(texture)
    }

    /// Stops the thread once everything queued is taken over; returns the pixel digests by path.
    func finish() -> [String: String] {
        stopped.withLock { $0 = true }
        finished.wait()
        return pixelDigests.withLock { $0 }
    }
}
