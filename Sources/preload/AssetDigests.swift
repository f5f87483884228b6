import Crypto
import Dispatch
import Preload
import PreloadAtlas
import Synchronization

/// SHA-256 digests of what `preload --checksum` reports: a texture's decoded pixels (rows top
/// to bottom, no padding), an atlas's pages, and each atlas frame as its original image.
struct AssetDigest: Sendable {
    var pixels: String?
    var pages: [String] = []
    var frames: [String] = []
}

enum AssetDigests {
    /// Digests of every loaded texture and atlas in `report`, by request path, computed in parallel.
    static func compute(for report: PreloadReport) -> [String: AssetDigest] {
        enum Part { case pixels, page(Int), frame(Int) }
        var work: [(path: String, part: Part, image: @Sendable () throws -> [UInt8])] = []
        for result in report.requested.loaded {
            let path = result.request.path
            if let texture = result.outcome.asset as? Texture {
                work.append((path, .pixels, { texture.pixels }))
            } else if let atlas = result.outcome.asset as? TextureAtlas {
                for (index, page) in atlas.pages.enumerated() { work.append((path, .page(index), { page.texture.pixels })) }
                for (index, frame) in atlas.frames.enumerated() { work.append((path, .frame(index), { try atlas.image(of: frame).pixels })) }
            }
        }
        let items = work
        let hashes = Mutex([String?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let hash = (try? items[index].image()).map(sha256)
            hashes.withLock { $0[index] = hash }
        }
        var digests: [String: AssetDigest] = [:]
        for (item, hash) in zip(items, hashes.withLock { $0 }) {
            switch item.part {
            case .pixels: digests[item.path, default: AssetDigest()].pixels = hash
            case .page: digests[item.path, default: AssetDigest()].pages.append(hash ?? "")
            case .frame: digests[item.path, default: AssetDigest()].frames.append(hash ?? "")
            }
        }
        return digests
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
