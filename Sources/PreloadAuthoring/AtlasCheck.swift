import PreloadAtlas
import Preload
import PreloadPNG

/// Validates an atlas: `preload atlas check`. Each page (or sprite) is decoded, so a damaged
/// image is a problem and one the loader would forgive (no IEND) a warning, exactly as loading
/// would report them; sizes come from the decoded pages.
public enum AtlasCheck {
    /// What a check found.
    public struct Report: Sendable {
        /// The atlas's dialect.
        public var format: TextureAtlas.Format
        /// Its pages (0 for a sprite folder, which is packed at load time).
        public var pages: Int
        /// Its frames (a sprite folder's sprites).
        public var frames: Int
        /// What would make loading fail, each naming the file and frame.
        public var problems: [AtlasError]
        /// What loading would forgive with a warning, each with the file it concerns (the
        /// descriptor, a page, a sprite).
        public var warnings: [(file: String, warning: AssetWarning)]
    }

    /// Checks the atlas at `path` (a descriptor, a compiled `.atlasc` folder or a sprite folder),
    /// packing a sprite folder with `packing`.
    public static func check(path: String, packing: AtlasLoaderSettings = AtlasLoaderSettings()) throws -> Report {
        try check(path: path, packing: packing, files: .local)
    }

    /// Checks the atlas at `path`, reading through `files` (on disk or inside packs).
    package static func check(path: String, packing: AtlasLoaderSettings, files: AssetFiles) throws -> Report {
        let file = try files.facts(of: path)
        let request = PlannedRequest(
            request: AssetRequest(path: path, options: AssetOptions().with(AtlasLoaderSettings.self, packing)), plugin: "atlas", file: file,
            files: files)
        var warnings: [(file: String, warning: AssetWarning)] = []
        switch try AtlasLoader.source(for: request) {
        case .folder(let sprites):
            var problems: [AtlasError] = []
            for sprite in sprites {
                switch image(sprite.path, files: files, warnings: &warnings) {
                case .unreadable(let cause):
                    problems.append(.pageFailed(file: path, page: sprite.path, cause: cause))
                case .size(let width, let height) where width > packing.maxPageSize || height > packing.maxPageSize:
                    problems.append(
                        .spriteTooLarge(file: sprite.path, sprite: sprite.name, width: width, height: height, pageLimit: packing.maxPageSize))
                case .size: continue
                }
            }
            return Report(format: .folder, pages: 0, frames: sprites.count, problems: problems, warnings: warnings)
        case .grid(let grid):  // an image cut into a grid: the image must read
            switch image(path, files: files, warnings: &warnings) {
            case .size(let width, let height):
                let frames = grid.frames(width: width, height: height).count
                return Report(format: .spriteSheet, pages: 1, frames: frames, problems: [], warnings: warnings)
            case .unreadable(let cause):
                return Report(
                    format: .spriteSheet, pages: 1, frames: 0, problems: [.pageFailed(file: path, page: path, cause: cause)], warnings: warnings)
            }
        case .descriptor(let description):
            var problems: [AtlasError] = []
            var sizes: [(width: Int, height: Int)?] = []
            warnings += description.allWarnings.map { (description.file, $0) }
            for page in description.pages {
                switch image(page.path, files: files, warnings: &warnings) {
                case .size(let width, let height): sizes.append((width, height))
                case .unreadable(let cause):
                    sizes.append(nil)
                    problems.append(.pageFailed(file: description.file, page: page.path, cause: cause))
                }
            }
            problems += description.problems(pageSizes: sizes) + overlaps(in: description)
            return Report(
                format: description.format, pages: description.pages.count, frames: description.frames.count, problems: problems,
                warnings: warnings)
        }
    }

    private enum Image {
        case size(width: Int, height: Int)
        case unreadable(String)
    }

    /// A page's or sprite's size, decoding it as the loader would, and its warnings.
    private static func image(_ path: String, files: AssetFiles, warnings: inout [(file: String, warning: AssetWarning)]) -> Image {
        do {
            let texture = try PNGDecoder.decode(try files.read(path), warn: { warnings.append((path, $0)) })
            return .size(width: texture.width, height: texture.height)
        } catch {
            return .unreadable((error as? AssetError)?.reason ?? "\(error)")
        }
    }

    /// Frames on one page that partly overlap (sorted by x, so only neighbours are compared).
    static func overlaps(in description: AtlasDescription) -> [AtlasError] {
        var problems: [AtlasError] = []
        let byPage = Dictionary(grouping: description.frames, by: \.page)
        for frames in byPage.values {
            let sorted = frames.sorted { $0.rect.x < $1.rect.x }
            for (index, a) in sorted.enumerated() {
                for b in sorted[(index + 1)...] {
                    guard b.rect.x < a.rect.maxX else { break }
                    let overlap = a.rect.y < b.rect.maxY && b.rect.y < a.rect.maxY
                    if overlap && a.rect != b.rect {
                        problems.append(.framesOverlap(file: description.file, first: a.name, second: b.name))
                    }
                }
            }
        }
        return problems
    }
}
