import Foundation
import Preload
import PreloadGPU

/// Writes what a batch loaded as PNG files a person can look at: every texture (an atlas's
/// pages included) as an RGBA PNG at `FOLDER/<store name>.png`, the store name kept whole and
/// `.png` appended, folders made as needed. How a user sees what the loader saw, whatever the
/// source format (a JPEG, a WebP, an entry of a pack or a baked pack), and how tests compare
/// decoders.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadAuthoring
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// let report = try await coordinator.preload([.folder("assets")])
/// let exported = try TextureExporter.write(report, to: "out")
/// print(exported)   // "Exported 12 textures to out"
/// ```
///
/// Each kind hands over its own textures (`ExportableAsset`): a page an atlas packed at load
/// time (a sprite folder's) is named `ATLAS#N` (as the atlas names the page), as a baked pack
/// names it; a page loaded from its own file is exported under that file's store name.
/// RGBA16 textures are written with 8-bit samples (the high byte); premultiplied textures as
/// they are.
public enum TextureExporter {
    /// What ``write(_:to:as:baking:)`` did.
    public struct Exported: Sendable, CustomStringConvertible {
        /// The files written, in the report's order.
        public var files: [String] = []
        /// Textures not written, with why (an empty image, a name that would leave the folder).
        public var skipped: [(name: String, reason: String)] = []
        /// With `baking`: each texture's GPU format and quality, and the totals.
        public var gpu: GPUBakeTotals?
        /// The files' format.
        public var format: FileFormat = .png

        public var description: String {
            "Exported \(files.count) texture\(files.count == 1 ? "" : "s")" + (format == .png ? "" : " (KTX2)")
                + (skipped.isEmpty ? "" : ", skipped \(skipped.count)")
        }
    }

    /// What the files are.
    public enum FileFormat: Sendable, Hashable {
        /// RGBA PNG (`NAME.png`), 8 bits a sample, level 0: what a person looks at. A texture in a
        /// GPU block format is decoded first (what the GPU samples).
        case png
        /// KTX2 (`NAME.ktx2`): the texture as it is, every level, its format, colour space and
        /// alpha mode, each level stored as `supercompression` says (`KTX2File`).
        case ktx2(KTX2Supercompression)

        /// The extension its files are written with: `png`, `ktx2`.
        var fileExtension: String {
            switch self {
            case .png: "png"
            case .ktx2: "ktx2"
            }
        }
    }

    /// Every texture `report` loaded, with the name it is exported under: loaded textures by
    /// their store names, then the pages atlases packed at load time (each `ExportableAsset`'s
    /// textures, as it hands them over).
    public static func textures(in report: PreloadReport) -> [(name: String, texture: Texture)] {
        let collector = ExportCollector(folder: "", writesFiles: false)
        try? collector.export(report)  // writes no file: nothing throws
        return collector.gatheredTextures
    }

    /// Writes every texture of `report` under `folder` (see the type's description) as `format`
    /// says, each made GPU-ready first when `baking` is given. Each file is written whole or not
    /// at all; one that cannot be written throws, naming it. ``AssetExporter`` writes the
    /// batch's other files beside them (sounds as WAV).
    public static func write(
        _ report: PreloadReport, to folder: String, as format: FileFormat = .png, baking: BakeWriter.TextureBaking? = nil
    ) throws -> Exported {
        try write(textures(in: report), to: folder, as: format, baking: baking)
    }

    /// Writes `textures` under `folder` by name, as ``write(_:to:as:baking:)`` does.
    static func write(
        _ textures: [(name: String, texture: Texture)], to folder: String, as format: FileFormat, baking: BakeWriter.TextureBaking?
    ) throws -> Exported {
        var exported = Exported(format: format)
        var textures = textures
        if let baking {
            let (baked, totals) = try baking.apply(to: textures)
            exported.gpu = totals
            textures = zip(textures, baked).map { ($0.name, $1.texture) }
        }
        for (name, texture) in textures {
            guard let relative = ExportCollector.relativePath(of: name) else {
                exported.skipped.append((name, "the name would leave \(folder)"))
                continue
            }
            guard texture.width > 0, texture.height > 0 else {
                exported.skipped.append((name, "an empty image cannot be a PNG"))
                continue
            }
            let bytes: [UInt8]
            let path: String
            switch format {
            case .png:
                path = folder + "/" + relative + "." + format.fileExtension
                if texture.pixelFormat == .rgba8 {
                    bytes = try PNGEncoder.encode(texture)  // level 0, from the texture's own bytes
                } else {
                    // RGBA16's high bytes, or what the GPU samples: level 0's blocks decoded.
                    let decoded: RGBAImage
                    do {
                        decoded = try RGBAImage(decoding: texture)
                    } catch {
                        exported.skipped.append((name, "its \(texture.pixelFormat) blocks do not decode: \(error)"))
                        continue
                    }
                    bytes = try PNGEncoder.encode(
                        Texture(
                            width: decoded.width, height: decoded.height, pixelFormat: .rgba8, alphaMode: texture.alphaMode, pixels: decoded.pixels))
                }
            case .ktx2(let supercompression):
                path = folder + "/" + relative + "." + format.fileExtension
                bytes = try KTX2File(texture: texture, supercompression: supercompression).encoded()
            }
            let file = try AtomicFile(path: path)
            try file.write(bytes)
            try file.commit()
            exported.files.append(path)
        }
        return exported
    }
}
