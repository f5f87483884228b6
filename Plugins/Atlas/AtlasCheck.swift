import Preload
import PreloadPNG

/// Validates an atlas without decoding its pages: `preload atlas check`. Page sizes come from
/// each PNG's header (or, failing that, what the descriptor declares).
public enum AtlasCheck {
    /// What a check found.
    public struct Report: Sendable {
        public var format: TextureAtlas.Format
        public var pages: Int
        public var frames: Int
        public var problems: [AtlasError]
    }

    public static func check(path: String, packing: AtlasPackingOptions = AtlasPackingOptions(), files: AssetFiles = .local) throws -> Report {
        let file = try files.facts(of: path)
        let request = PlannedRequest(
            request: AssetRequest(path: path, options: AssetOptions().with(AtlasOptions.self, packing)), plugin: "atlas", file: file, files: files)
        switch try AtlasLoader.source(for: request) {
        case .folder(let sprites):
            var problems: [AtlasError] = []
            for sprite in sprites {
                switch header(of: sprite.path, files: files) {
                case .unreadable(let cause):
                    problems.append(.pageFailed(file: path, page: sprite.path, cause: cause))
                case .size(let width, let height) where width > packing.maxPageSize || height > packing.maxPageSize:
                    problems.append(.spriteTooLarge(file: sprite.path, sprite: sprite.name, width: width, height: height, pageLimit: packing.maxPageSize))
                case .size: continue
                }
            }
            return Report(format: .folder, pages: 0, frames: sprites.count, problems: problems)
        case .descriptor(let description):
            var problems: [AtlasError] = []
            var sizes: [(width: Int, height: Int)?] = []
            for page in description.pages {
                switch header(of: page.path, files: files) {
                case .size(let width, let height): sizes.append((width, height))
                case .unreadable(let cause):
                    sizes.append(nil)
                    problems.append(.pageFailed(file: description.file, page: page.path, cause: cause))
                }
            }
            problems += description.problems(pageSizes: sizes) + overlaps(in: description)
            return Report(format: description.format, pages: description.pages.count, frames: description.frames.count, problems: problems)
        }
    }

    private enum Header {
        case size(width: Int, height: Int)
        case unreadable(String)
    }

    /// A PNG's size from its first 33 bytes.
    private static func header(of path: String, files: AssetFiles) -> Header {
        do {
            guard let png = PNGHeader(try files.prefix(path, count: 33)) else { return .unreadable("not a PNG file") }
            return .size(width: png.width, height: png.height)
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
