import Preload
import PreloadBaked

/// The ``AssetExporter``'s `ExportFolder`: files are written as assets hand them over, each
/// whole or not at all; textures are gathered, the batch's own first and then the parts of
/// larger assets (an atlas's pages) that none of them already holds, to be written together
/// once every asset was asked (made GPU-ready first when asked, as one batch).
final class ExportCollector: ExportFolder {
    let folder: String
    /// Whether textures are gathered, and whether files are written (each exporter of one
    /// sort of file turns the other off).
    let gathersTextures: Bool
    let writesFiles: Bool
    /// The path of the asset being exported: the file its own texture was loaded from.
    var currentPath = ""
    /// The extension the textures are written with (`png`, `ktx2`).
    var textureFileExtension = "png"

    private(set) var files: [(path: String, label: ExportLabel)] = []
    private(set) var skipped: [(name: String, reason: String)] = []
    private var textures: [(name: String, texture: Texture)] = []
    private var parts: [(name: String, texture: Texture, source: String)] = []
    private var textureNames = Set<String>()
    private var texturePaths = Set<String>()
    private var bySize: [Int: [Texture]] = [:]  // by pixel count: a part loaded from its own file is one of them
    private var fileNames = Set<String>()

    init(folder: String, gathersTextures: Bool = true, writesFiles: Bool = true) {
        self.folder = folder
        self.gathersTextures = gathersTextures
        self.writesFiles = writesFiles
    }

    /// Asks every exportable asset of `report` to write itself, under its store name.
    func export(_ report: PreloadReport) throws {
        for result in report.allResults {
            guard let asset = result.outcome.asset as? any ExportableAsset else { continue }
            currentPath = result.request.path
            try asset.export(as: result.request.name, into: self)
        }
    }

    func write(_ texture: Texture, named name: String, partOf source: String?) {
        guard gathersTextures else { return }
        if let source {
            parts.append((name, texture, source))
        } else if textureNames.insert(name).inserted {
            textures.append((name, texture))
            texturePaths.insert(currentPath)
            bySize[texture.pixels.count, default: []].append(texture)
        }
    }

    func writeFile(named name: String, extension: String, counted label: ExportLabel, contents: () throws -> [AssetBytes]) throws {
        guard writesFiles, fileNames.insert(name + "." + `extension`).inserted else { return }
        guard let relative = Self.relativePath(of: name) else {
            skipped.append((name, "the name would leave \(folder)"))
            return
        }
        let path = folder + "/" + relative + "." + `extension`
        let file = try AtomicFile(path: path)
        for part in try contents() {
            try part.withUnsafeBytes { try file.write($0) }  // in place, not copied together
        }
        try file.commit()
        files.append((path, label))
    }

    func skip(_ name: String, because reason: String) {
        skipped.append((name, reason))
    }

    /// Every texture gathered, with the name it is written under: the batch's own, then the
    /// parts none of them holds (not loaded from the file of one, not the same pixels).
    var gatheredTextures: [(name: String, texture: Texture)] {
        var names = textureNames
        let kept = parts.filter { part in
            !texturePaths.contains(part.source) && !(bySize[part.texture.pixels.count] ?? []).contains(part.texture)
                && names.insert(part.name).inserted
        }
        return textures + kept.map { ($0.name, $0.texture) }
    }

    /// `name` as a path below a folder (an absolute name kept whole below it; `./art/hero.png`
    /// is `art/hero.png`), or `nil` when it would leave the folder.
    static func relativePath(of name: String) -> String? {
        let relative = AssetPath.normalized(name.hasPrefix("/") ? String(name.drop { $0 == "/" }) : name)
        return BakedIndex.staysInside(relative) ? relative : nil
    }
}
