import Preload

/// Where an atlas's page images are, when not where its descriptor says.
///
/// A descriptor names its pages relative to its own folder, and that is where the atlas plugin
/// looks by default. Loaders with other rules set this option on the atlas request: Phaser's
/// `atlas` file type takes its one texture from `textureURL` whatever the JSON's `image` says,
/// and its `multiatlas` resolves each page's `image` against the pack's path, not the JSON's
/// folder.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
///
/// let ui = AssetRequest(path: "assets/ui.json", name: "ui", plugin: "atlas",
///                       options: AssetOptions().with(AtlasPageLocation.self, .files(["assets/ui-v2.png"])))
/// ```
public enum AtlasPageLocation: Hashable, Sendable, AssetOptionKey {
    /// Each page where the descriptor names it, relative to the descriptor's folder.
    case asDescribed
    /// These files, in page order; the descriptor must have exactly this many pages.
    case files([String])
    /// Each page's name as the descriptor writes it, inside this folder (`""`: the current one).
    case folder(String)

    /// Pages where the descriptor says.
    public static let defaultValue = AtlasPageLocation.asDescribed

    /// `pages` moved where this location puts them; `file` is the descriptor, for messages.
    func place(_ pages: [AtlasDescription.Page], file: String) throws -> [AtlasDescription.Page] {
        switch self {
        case .asDescribed:
            return pages
        case .files(let paths):
            guard paths.count == pages.count else {
                throw AtlasError.malformed(
                    file: file,
                    detail:
                        "the descriptor has \(pages.count) page\(pages.count == 1 ? "" : "s") but \(paths.count) page file\(paths.count == 1 ? " was" : "s were") given"
                )
            }
            return zip(pages, paths).map { page, path in
                var placed = page
                placed.path = path
                return placed
            }
        case .folder(let folder):
            return pages.map { page in
                var placed = page
                let name = page.nameAsWritten ?? AssetPath.fileName(of: page.path)
                placed.path = folder.isEmpty || name.hasPrefix("/") ? name : (folder.hasSuffix("/") ? folder : folder + "/") + name
                return placed
            }
        }
    }
}
