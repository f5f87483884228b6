import Dispatch
import Preload
import PreloadRemote

/// SHA-256 digests of what `preload --checksum` reports: each described asset's parts
/// (`DescribedAsset.checksummedParts`: a texture's decoded pixels, a data file's bytes, a
/// sound's PCM, an atlas's pages and frames, a pack's entries' raw bytes, ...), which its
/// description places.
enum AssetDigests {
    /// The digests of the parts of every described asset among `results`, by request path,
    /// computed in parallel.
    static func compute(for results: [AssetResult]) -> [String: AssetChecksums] {
        var work: [(path: String, part: ChecksummedPart)] = []
        for result in results {
            guard let asset = result.outcome.asset as? any DescribedAsset else { continue }
            work += asset.checksummedParts.map { (result.request.path, $0) }
        }
        let items = work
        let hashes = Locked([String?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let hash = (try? items[index].part.bytes()).map(sha256)
            hashes.withLock { $0[index] = hash }
        }
        var digests: [String: AssetChecksums] = [:]
        for (item, hash) in zip(items, hashes.withLock { $0 }) {
            digests[item.path, default: AssetChecksums()][item.part.name] = hash
        }
        return digests
    }

    /// The digests of `asset`'s parts, one after another (on the calling thread).
    static func compute(for asset: any DescribedAsset) -> AssetChecksums {
        var digests = AssetChecksums()
        for part in asset.checksummedParts { digests[part.name] = (try? part.bytes()).map(sha256) }
        return digests
    }

    /// The SHA-256 of `bytes` in lowercase hex; empty without libcrypto (`--checksum` checks
    /// for it before loading: ``LoadCommand``).
    static func sha256(_ bytes: AssetBytes) -> String {
        (try? bytes.withUnsafeBytes { bytes throws(MissingSystemLibrary) in try SHA256.hash(bytes: bytes) })?.hexString ?? ""
    }
}
