import Preload

/// A sprite folder (SpriteKit's source convention): `NAME.atlas/` holding loose images (PNG, and
/// JPEG, WebP or QOI where their plugins are registered), possibly in subfolders, with resolution
/// variants `hero@2x.png`, `hero@3x.png` beside `hero.png`.
///
/// Each sprite is named by its path inside the folder without the variant suffix (`hero.png`,
/// `ui/button.png`), and one variant is chosen per sprite for the requested scale: the exact one,
/// else the largest smaller one, else the smallest larger one.
package enum SpriteFolder {
    package struct Sprite: Hashable, Sendable {
        package var name: String
        package var path: String
        package var scale: Int
    }

    static func sprites(in folder: String, scale: Int, files: AssetFiles = .local) throws -> [Sprite] {
        let names: [String]
        do {
            names = try files.files(under: folder)
        } catch {
            throw AtlasError.malformed(file: folder, detail: "the sprite folder cannot be read: \(error)")
        }
        var variants: [String: [Sprite]] = [:]
        for relative in names where imageExtensions.contains(AssetPath.fileExtension(of: relative)) {
            let (name, variantScale) = splitVariant(relative)
            variants[name, default: []].append(Sprite(name: name, path: folder + "/" + relative, scale: variantScale))
        }
        return variants.keys.sorted().map { name in choose(variants[name]!, for: scale) }
    }

    /// The extensions of the images a sprite folder packs (lowercase): each loads by the plugin
    /// that claims it, so one without its plugin fails the atlas by name.
    package static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "qoi"]

    /// `ui/hero@2x.png` → (`ui/hero.png`, 2).
    static func splitVariant(_ relative: String) -> (name: String, scale: Int) {
        let dot = relative.lastIndex(of: ".")!
        let stem = relative[..<dot], fileExtension = relative[dot...]
        for scale in [2, 3] where stem.hasSuffix("@\(scale)x") {
            return (String(stem.dropLast(3)) + fileExtension, scale)
        }
        return (relative, 1)
    }

    private static func choose(_ variants: [Sprite], for scale: Int) -> Sprite {
        if let exact = variants.first(where: { $0.scale == scale }) { return exact }
        if let below = variants.filter({ $0.scale < scale }).max(by: { $0.scale < $1.scale }) { return below }
        return variants.min(by: { $0.scale < $1.scale })!
    }
}
