import Preload

/// Which way each texture reached the GPU, for the one line the example prints at the end:
/// `upload path: 9 bc7 textures compressed through OpenGL (llvmpipe ...), 1152 KiB`.
struct UploadPaths {
    /// The ways a texture goes.
    enum Path: Hashable, Comparable {
        /// RGBA8 as loaded.
        case rgba8
        /// Blocks as they are, through OpenGL on the named driver.
        case compressed(driver: String)
        /// Decoded to RGBA8 on the CPU, and why.
        case decoded(reason: String)

        var shown: String {
            switch self {
            case .rgba8: return "RGBA8"
            case .compressed(let driver): return "compressed through OpenGL (\(driver))"
            case .decoded(let reason): return "decoded on the CPU to RGBA8 (\(reason))"
            }
        }
    }

    private var taken: [Path: (formats: Set<PixelFormat>, textures: Int, bytes: Int)] = [:]

    /// Notes that a texture of `format` went by `path`, `bytes` reaching the driver.
    mutating func record(_ path: Path, format: PixelFormat, bytes: Int) {
        var entry = taken[path] ?? ([], 0, 0)
        entry.formats.insert(format)
        entry.textures += 1
        entry.bytes += bytes
        taken[path] = entry
    }

    /// `upload path: ` and each path taken, with its textures' formats, count and bytes.
    var summary: String {
        guard !taken.isEmpty else { return "upload path: no textures" }
        let parts = taken.keys.sorted().map { path in
            let entry = taken[path]!
            let formats = entry.formats.map(\.rawValue).sorted().joined(separator: "/")
            return "\(entry.textures) \(formats) texture\(entry.textures == 1 ? "" : "s") \(path.shown), \(entry.bytes / 1024) KiB"
        }
        return "upload path: " + parts.joined(separator: "; ")
    }
}
