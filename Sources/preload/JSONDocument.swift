import Foundation
import Preload

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

    init(report: PreloadReport, registry: PluginRegistry, skipped: [String], digests: [String: String]) {
        assets = report.results.map { result in
            let kind = result.outcome.asset?.kind.rawValue
                ?? result.plugin.flatMap { registry.plugin(identifier: $0)?.assetKind.rawValue } ?? "unknown"
            var entry = AssetEntry(
                path: result.request.path, kind: kind, plugin: result.plugin, status: result.outcome.status)
            switch result.outcome {
            case .loaded(let asset):
                entry.bytes = asset.byteCount
                entry.seconds = result.seconds
                if let texture = asset as? Texture {
                    entry.width = texture.width
                    entry.height = texture.height
                    entry.pixelFormat = texture.pixelFormat.rawValue
                    entry.sha256 = digests[result.request.path]
                }
            case .failed(let error):
                entry.error = error.description
                entry.errorCategory = error.category.rawValue
            case .cancelled:
                break
            }
            return entry
        }
        summary = SummaryEntry(
            loaded: report.loaded.count, failed: report.failed.count, cancelled: report.cancelled.count,
            skipped: skipped.count, decodedBytes: report.decodedBytes, seconds: report.elapsedSeconds)
        skippedPaths = skipped
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
