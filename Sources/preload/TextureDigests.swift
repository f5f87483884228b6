import Crypto
import Dispatch
import Preload
import Synchronization

/// SHA-256 of each loaded texture's decoded pixels (rows top to bottom, no padding), by path.
enum TextureDigests {
    static func compute(for report: PreloadReport) -> [String: String] {
        let textures = report.loaded.compactMap { result in
            (result.outcome.asset as? Texture).map { (result.request.path, $0) }
        }
        let digests = Mutex([String: String]())
        DispatchQueue.concurrentPerform(iterations: textures.count) { index in
            let (path, texture) = textures[index]
            let hex = SHA256.hash(data: texture.pixels).map { byte in
                String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }.joined()
            digests.withLock { $0[path] = hex }
        }
        return digests.withLock { $0 }
    }
}
