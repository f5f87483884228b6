import Foundation
import Preload
import PreloadManifest
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadTileMap
import PreloadPack

/// The document `preload --json` prints: one entry per asset, then a summary.
///
/// ```json
/// {"assets":[{"path":"a.png","kind":"texture","plugin":"png","status":"loaded","width":64,
///   "height":64,"pixelFormat":"rgba8","bytes":16384,"sha256":"..."},
///  {"path":"b.png","kind":"texture","plugin":"png","status":"failed","error":"..."},
///  {"path":"game.pak","kind":"pack","plugin":"pack","format":"pak","status":"loaded","entries":[
///    {"name":"hero.png","bytes":2048,"compressedBytes":1900,"status":"loaded","sha256":"..."}]},
///  {"path":"game.pak#hero.png","kind":"texture","plugin":"png","status":"loaded",...}],
///  "summary":{"loaded":1,"failed":1,"cancelled":0,"skipped":0,"decodedBytes":16384,"seconds":0.01}}
/// ```
struct JSONDocument: Encodable {
    struct AssetEntry: Encodable {
        var path: String
        /// The store name, when the request gave one other than its path (a manifest's names).
        var name: String?
        var kind: String
        var plugin: String?
        var status: String
        var width: Int?
        var height: Int?
        var pixelFormat: String?
        var mipLevels: Int?
        var bytes: Int?
        var sha256: String?
        var error: String?
        var errorCategory: String?
        var seconds: Double?
        var format: String?
        var scale: Double?
        var pages: [PageEntry]?
        var frames: [FrameEntry]?
        var entries: [PackEntry]?
        /// A sound's or music's playing time, rate, channels, frames, sample type and encoding.
        var duration: Double?
        var sampleRate: Int?
        var channels: Int?
        var frameCount: Int?
        var sampleFormat: String?
        var encoding: String?
        /// An audio sprite's named parts, in frames.
        var ranges: [String: RangeEntry]?
        /// A font's typeface, size, line height, baseline, and how many glyphs and kerning pairs.
        var face: String?
        var size: Int?
        var lineHeight: Int?
        var base: Int?
        var glyphCount: Int?
        var kerningPairCount: Int?
        /// A map's size in tiles, its tiles' size in pixels, its orientation, and how many layers
        /// (groups' included) and tilesets; its images are its `pages`.
        var columns: Int?
        var rows: Int?
        var tileWidth: Int?
        var tileHeight: Int?
        var orientation: String?
        var layerCount: Int?
        var tilesetCount: Int?
        /// What the asset (or a dependency not listed on its own, such as an atlas page) was
        /// forgiven; absent when nothing.
        var warnings: [WarningEntry]?
        /// Where its load's time went (`PreloadReport.timings(of:)`), for an asset whose plugin ran.
        var timings: TimingsEntry?
        /// How its file was fetched, for a URL (`PreloadReport.transfer(of:)`).
        var transfer: TransferEntry?
    }

    /// How a remote file reached the disk.
    struct TransferEntry: Encodable {
        var url: String
        var networkBytes: Int64
        var cacheBytes: Int64
        var seconds: Double
        var attempts: Int
        var resumedAt: Int64?
        var restart: String?

        init(_ transfer: AssetTransfer) {
            url = transfer.url
            networkBytes = transfer.networkBytes
            cacheBytes = transfer.cacheBytes
            seconds = transfer.duration / .seconds(1)
            attempts = transfer.attempts
            resumedAt = transfer.resumedAt
            restart = transfer.restart?.rawValue
        }
    }

    /// A named part of a sound.
    struct RangeEntry: Encodable {
        var start: Int
        var end: Int
        var loops: Bool
    }

    /// An asset's `AssetTimings`, in seconds.
    struct TimingsEntry: Encodable {
        var queued: Double
        var waitingForMemory: Double
        var reading: Double
        var decoding: Double

        init(_ timings: AssetTimings) {
            queued = timings.queued / .seconds(1)
            waitingForMemory = timings.waitingForMemory / .seconds(1)
            reading = timings.reading / .seconds(1)
            decoding = timings.decoding / .seconds(1)
        }
    }

    /// A warning: its code, its words, and the file it concerns.
    struct WarningEntry: Encodable {
        var code: String
        var message: String
        var file: String
    }

    /// A pack entry: `bytes` raw, `compressedBytes` as stored, `sha256` over the raw bytes.
    struct PackEntry: Encodable {
        var name: String
        var bytes: UInt64?
        var compressedBytes: UInt64
        var status: String
        var sha256: String?
        var error: String?
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
        /// How the frame is stored in the page, in the Swift API's words (`AtlasFrame.Rotation`):
        /// `none`, `clockwise`, `counterClockwise`, `upsideDown`.
        var rotation: String
        /// `rotation != "none"`; kept for one release for readers of the old documents.
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
        /// Warnings over every asset listed.
        var warnings: Int
        /// Entries of the packs loaded, when there are any.
        var packEntries: EntryCounts?
        /// Under `--memory-budget`, the most decoded bytes held at once
        /// (`PreloadReport.peakHeldBytes`), to compare with the budget.
        var peakHeldBytes: Int?
    }

    struct EntryCounts: Encodable {
        var loaded: Int
        var failed: Int
        var cancelled: Int

        init(_ counts: (loaded: Int, failed: Int, cancelled: Int)) {
            (loaded, failed, cancelled) = counts
        }
    }

    /// What a manifest lists but does not load (`--manifest`), when there is any.
    struct NoticeEntry: Encodable {
        var kind: String
        var group: String?
        var entry: String?
        var type: String
        var detail: String
    }

    var assets: [AssetEntry]
    var summary: SummaryEntry
    var skippedPaths: [String]
    /// Why each skipped path that is not simply unclaimed was skipped (`PreloadReport.skipReasons`),
    /// when there is any.
    var skipReasons: [String: String]?
    var manifestNotices: [NoticeEntry]?

    init(
        report: PreloadReport, requested: [AssetResult], registry: PluginRegistry, digests: [String: AssetDigest],
        packs: PackContents, warnings: ShownWarnings, notices: [ManifestNotice] = [], budgeted: Bool = false
    ) {
        func entry(for result: AssetResult) -> AssetEntry {
            var entry = Self.entry(for: result, registry: registry, digest: digests[result.request.path])
            entry.timings = report.timings(of: result).map(TimingsEntry.init)
            entry.transfer = report.transfer(of: result).map(TransferEntry.init)
            let items = warnings.items(for: result.request.path)
            if !items.isEmpty {
                entry.warnings = items.map { WarningEntry(code: $0.warning.code.rawValue, message: $0.warning.message, file: $0.file) }
            }
            return entry
        }
        assets = requested.flatMap { result in
            [entry(for: result)] + (packs.entryAssets[result.request.path] ?? []).map(entry(for:))
        }
        summary = SummaryEntry(
            loaded: requested.loaded.count, failed: requested.failed.count, cancelled: requested.cancelled.count,
            skipped: report.skippedPaths.count, decodedBytes: report.decodedBytes, seconds: report.elapsed / .seconds(1), warnings: warnings.count,
            packEntries: packs.packs.isEmpty ? nil : EntryCounts(packs.entryCounts), peakHeldBytes: budgeted ? report.peakHeldBytes : nil)
        skippedPaths = report.skippedPaths
        if !report.skipReasons.isEmpty { skipReasons = report.skipReasons }
        if !notices.isEmpty {
            manifestNotices = notices.map { NoticeEntry(kind: $0.kind.rawValue, group: $0.group, entry: $0.entry, type: $0.type, detail: $0.detail) }
        }
    }

    static func entry(for result: AssetResult, registry: PluginRegistry, digest: AssetDigest?) -> AssetEntry {
        let kind =
            result.outcome.asset?.kind.rawValue
            ?? result.plugin.flatMap { registry.plugin(identifier: $0)?.assetKind.rawValue } ?? "unknown"
        var entry = AssetEntry(path: result.request.path, kind: kind, plugin: result.plugin, status: result.outcome.status)
        if result.request.name != result.request.path { entry.name = result.request.name }
        switch result.outcome {
        case .loaded(let asset):
            entry.bytes = result.shownBytes
            entry.seconds = result.duration / .seconds(1)
            if let texture = result.textureFacts {
                entry.width = texture.width
                entry.height = texture.height
                entry.pixelFormat = texture.pixelFormat.rawValue
                entry.mipLevels = texture.mipLevelCount > 1 ? texture.mipLevelCount : nil
                entry.sha256 = digest?.pixels
            } else if asset is DataAsset {
                entry.sha256 = digest?.pixels  // over the bytes, as a pack entry's is
            } else if let sound = asset as? Sound {
                describe(duration: sound.duration, sound.format, frames: sound.frameCount, sound.encoding, in: &entry)
                if !sound.ranges.isEmpty {
                    entry.ranges = sound.ranges.mapValues { RangeEntry(start: $0.frames.lowerBound, end: $0.frames.upperBound, loops: $0.loops) }
                }
                entry.sha256 = digest?.pixels  // over the PCM
            } else if let music = asset as? Music {
                describe(duration: music.duration, music.format, frames: music.frameCount, music.encoding, in: &entry)
                entry.sha256 = digest?.pixels  // over the PCM its stream gives
            } else if let atlas = asset as? TextureAtlas {
                describe(atlas, digest: digest, in: &entry)
            } else if let font = asset as? BitmapFont {
                describe(font, digest: digest, in: &entry)
            } else if let map = asset as? TileMap {
                entry.columns = map.width
                entry.rows = map.height
                entry.tileWidth = map.tileWidth
                entry.tileHeight = map.tileHeight
                entry.orientation = map.orientation.rawValue
                entry.layerCount = map.allLayers.count
                entry.tilesetCount = map.tilesets.count
                entry.pages = pages(map.images.compactMap { image in image.texture.map { (image.path, $0) } }, digest: digest)
            } else if let pack = asset as? PackAsset {
                entry.format = pack.format.rawValue
                entry.entries = pack.entries.map { item in
                    PackEntry(
                        name: item.name, bytes: item.rawSize, compressedBytes: item.storedSize, status: item.outcome.status,
                        sha256: digest?.entries[item.name], error: item.outcome.error?.description)
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

    private static func describe(
        duration: Double, _ format: AudioFormat, frames: Int, _ encoding: AudioEncoding, in entry: inout AssetEntry
    ) {
        entry.duration = duration
        entry.sampleRate = format.sampleRate
        entry.channels = format.channels
        entry.frameCount = frames
        entry.sampleFormat = format.sampleFormat.rawValue
        entry.encoding = encoding.rawValue
    }

    private static func describe(_ atlas: TextureAtlas, digest: AssetDigest?, in entry: inout AssetEntry) {
        entry.format = atlas.format.rawValue
        entry.scale = atlas.scale
        entry.pages = pages(atlas.pages.map { ($0.path, $0.texture) }, digest: digest)
        entry.frames = atlas.frames.enumerated().map { index, frame in
            FrameEntry(
                name: frame.name, page: frame.page, x: frame.rect.x, y: frame.rect.y, w: frame.rect.width,
                h: frame.rect.height, rotation: frame.rotation.rawValue, rotated: frame.isRotated, offsetX: frame.offsetX, offsetY: frame.offsetY,
                sourceW: frame.sourceWidth, sourceH: frame.sourceHeight, index: frame.index,
                sha256: digest.flatMap { index < $0.frames.count ? $0.frames[index] : nil })
        }
    }

    private static func describe(_ font: BitmapFont, digest: AssetDigest?, in entry: inout AssetEntry) {
        entry.format = font.format.rawValue
        entry.face = font.metrics.face
        entry.size = font.metrics.size
        entry.lineHeight = font.lineHeight
        entry.base = font.base
        entry.glyphCount = font.glyphs.count
        entry.kerningPairCount = font.kerningPairs.count
        entry.pages = pages(font.pages.map { ($0.path, $0.texture) }, digest: digest)
    }

    /// An atlas's or a font's pages, with their digests when `--checksum` asked for them.
    private static func pages(_ pages: [(path: String, texture: Texture)], digest: AssetDigest?) -> [PageEntry] {
        pages.enumerated().map { index, page in
            PageEntry(
                path: page.path, width: page.texture.width, height: page.texture.height,
                sha256: digest.flatMap { index < $0.pages.count ? $0.pages[index] : nil })
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension AssetOutcome {
    /// `"loaded"`, `"failed"` or `"cancelled"`, as the JSON document spells an outcome.
    fileprivate var status: String {
        switch self {
        case .loaded: "loaded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}
