import Dispatch
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadTileMap
import PreloadPack
import PreloadRemote

/// SHA-256 digests of what `preload --checksum` reports: a texture's decoded pixels (rows top
/// to bottom, no padding), a data file's bytes, an atlas's or a font's pages, a map's images, each atlas frame as its
/// original image, and the PCM of a sound or of music (decoded through a stream).
struct AssetDigest: Sendable {
    var pixels: String?
    var pages: [String] = []
    var frames: [String] = []
    /// A pack's entries' raw bytes, by entry name.
    var entries: [String: String] = [:]
}

enum AssetDigests {
    /// Digests of every loaded texture, atlas and pack among `results`, by request path,
    /// computed in parallel. A pack entry's digest is over its raw bytes: those of a raw entry as
    /// loaded, the others read again with `packs`.
    static func compute(for results: [AssetResult], packs: PackLoader) -> [String: AssetDigest] {
        enum Part { case pixels, page, frame, entry(String) }
        var work: [(path: String, part: Part, bytes: @Sendable () throws -> AssetBytes)] = []
        for result in results {
            let path = result.request.path
            switch result.outcome.asset {
            case let texture as Texture:
                work.append((path, .pixels, { texture.pixels }))
            case let data as DataAsset:  // a data file (loose, or a baked pack's entry): its bytes
                work.append((path, .pixels, { data.bytes }))
            case let sound as Sound:
                work.append((path, .pixels, { sound.samples }))
            case let music as Music:
                work.append((path, .pixels, { AssetBytes(try music.decodeAll()) }))
            case let font as BitmapFont:
                for page in font.pages { work.append((path, .page, { page.texture.pixels })) }
            case let map as TileMap:
                for texture in map.images.compactMap(\.texture) { work.append((path, .page, { texture.pixels })) }
            case let atlas as TextureAtlas:
                for page in atlas.pages { work.append((path, .page, { page.texture.pixels })) }
                for frame in atlas.frames { work.append((path, .frame, { try atlas.image(of: frame).pixels })) }
            case let pack as PackAsset:
                for entry in pack.entries where entry.asset != nil {
                    let name = entry.name
                    let raw = (entry.asset as? DataAsset)?.bytes
                    work.append(
                        (
                            path, .entry(name),
                            {
                                try raw ?? packs.readEntry(name, in: path, limit: .max, memory: .shared, isCancelled: { false }, progress: { _ in })
                            }
                        ))
                }
            default:
                continue
            }
        }
        let items = work
        let hashes = Locked([String?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let hash = (try? items[index].bytes()).map(sha256)
            hashes.withLock { $0[index] = hash }
        }
        var digests: [String: AssetDigest] = [:]
        for (item, hash) in zip(items, hashes.withLock { $0 }) {
            switch item.part {
            case .pixels: digests[item.path, default: AssetDigest()].pixels = hash
            case .page: digests[item.path, default: AssetDigest()].pages.append(hash ?? "")
            case .frame: digests[item.path, default: AssetDigest()].frames.append(hash ?? "")
            case .entry(let name): digests[item.path, default: AssetDigest()].entries[name] = hash
            }
        }
        return digests
    }

    /// The SHA-256 of `bytes` in lowercase hex; empty without libcrypto (`--checksum` checks
    /// for it before loading: ``LoadCommand``).
    static func sha256(_ bytes: AssetBytes) -> String {
        (try? bytes.withUnsafeBytes { bytes throws(MissingSystemLibrary) in try SHA256.hash(bytes: bytes) })?.hexString ?? ""
    }
}
