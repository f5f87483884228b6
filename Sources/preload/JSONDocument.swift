import Foundation
import Preload
import PreloadAtlas

/// The document `preload --json` prints: one entry per asset, then a summary.
///
/// ```json
/// {"assets":[{"path":"a.png","kind":"texture","plugin":"png","status":"loaded","width":64,
///   "height":64,"pixelFormat":"rgba8","bytes":16384,"sha256":"..."},
///  {"path":"b.png","kind":"texture","plugin":"png","status":"failed","error":"..."}],
///  "summary":{"loaded":1,"failed":1,"cancelled":0,"skipped":0,"decodedBytes":16384,"seconds":0.01}}
/// ```
struct JSONDocument: Encodable {
    struct AssetEntry: Encodable {
        var path: String
        var kind: String
        var plugin: String?
        var status: String
        var width: Int?
        var height: Int?
        var pixelFormat: String?
        var bytes: Int?
        var sha256: String?
        var error: String?
        var errorCategory: String?
        var seconds: Double?
        var format: String?
        var scale: Double?
        var pages: [PageEntry]?
        var frames: [FrameEntry]?
    }

    /// An atlas page: its image and size.
    struct PageEntry: Encodable {
        var path: String
        var width: Int
        var height: Int
        var sha256: String?
    }

    /// An atlas frame, normalized: `x, y, w, h` is the rectangle it occupies in the page (the
    /// rotated one when rotated), `offsetX, offsetY` place the trimmed content in the original
    /// (`sourceW x sourceH`), top-left origin.
    struct FrameEntry: Encodable {
        var name: String
        var page: Int
        var x: Int
        var y: Int
        var w: Int
        var h: Int
        var rotated: Bool
        var offsetX: Int
        var offsetY: Int
        var sourceW: Int
        var sourceH: Int
        var index: Int?
        var sha256: String?
    }

    struct SummaryEntry: Encodable {
        var loaded: Int
        var failed: Int
        var cancelled: Int
        var skipped: Int
        var decodedBytes: Int
        var seconds: Double
    }

    var assets: [AssetEntry]
    var summary: SummaryEntry
    var skippedPaths: [String]

    init(report: PreloadReport, registry: PluginRegistry, skipped: [String], digests: [String: AssetDigest]) {
        assets = report.requested.map { result in
            let kind = result.outcome.asset?.kind.rawValue
                ?? result.plugin.flatMap { registry.plugin(identifier: $0)?.assetKind.rawValue } ?? "unknown"
            var entry = AssetEntry(
                path: result.request.path, kind: kind, plugin: result.plugin, status: result.outcome.status)
            switch result.outcome {
            case .loaded(let asset):
                entry.bytes = asset.byteCount
                entry.seconds = result.seconds
                let digest = digests[result.request.path]
                if let texture = asset as? Texture {
                    entry.width = texture.width
                    entry.height = texture.height
                    entry.pixelFormat = texture.pixelFormat.rawValue
                    entry.sha256 = digest?.pixels
                } else if let atlas = asset as? TextureAtlas {
                    entry.format = atlas.format.rawValue
                    entry.scale = atlas.scale
                    entry.pages = atlas.pages.enumerated().map { index, page in
                        PageEntry(
                            path: page.path, width: page.texture.width, height: page.texture.height,
                            sha256: digest.flatMap { index < $0.pages.count ? $0.pages[index] : nil })
                    }
                    entry.frames = atlas.frames.enumerated().map { index, frame in
                        FrameEntry(
                            name: frame.name, page: frame.page, x: frame.rect.x, y: frame.rect.y, w: frame.rect.width,
                            h: frame.rect.height, rotated: frame.isRotated, offsetX: frame.offsetX, offsetY: frame.offsetY,
                            sourceW: frame.sourceWidth, sourceH: frame.sourceHeight, index: frame.index,
                            sha256: digest.flatMap { index < $0.frames.count ? $0.frames[index] : nil })
                    }
                }
            case .failed(let error):
                entry.error = error.description
                entry.errorCategory = error.category.rawValue
            case .cancelled:
                break
            }
            return entry
        }
        let requested = report.requested
        summary = SummaryEntry(
            loaded: requested.loaded.count, failed: requested.failed.count, cancelled: requested.cancelled.count,
            skipped: skipped.count, decodedBytes: report.decodedBytes, seconds: report.elapsedSeconds)
        skippedPaths = skipped
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
