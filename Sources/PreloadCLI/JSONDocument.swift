import Foundation
import Preload
import PreloadManifest

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
    /// One asset: the command's own fields, then those its kind describes
    /// (`DescribedAsset`: a texture's size and format, an atlas's pages and frames, a sound's
    /// rate and channels, a pack's entries, ...), keys sorted with the rest.
    struct AssetEntry: Encodable {
        var path: String
        /// The store name, when the request gave one other than its path (a manifest's names).
        var name: String?
        var kind: String
        var plugin: String?
        var status: String
        var bytes: Int?
        /// The digest of the asset as a whole (`ChecksummedPart.whole`) with `--checksum`.
        var sha256: String?
        var error: String?
        var errorCategory: String?
        var seconds: Double?
        /// What the asset's kind says about it (`AssetDescription.fields`); a field named like
        /// one of the entry's own goes under the kind's name before its own (`palette.name`).
        var described = DescriptionFields()
        /// What the asset (or a dependency not listed on its own, such as an atlas page) was
        /// forgiven; absent when nothing.
        var warnings: [WarningEntry]?
        /// Where its load's time went (`PreloadReport.timings(of:)`), for an asset whose plugin ran.
        var timings: TimingsEntry?
        /// How its file was fetched, for a URL (`PreloadReport.transfer(of:)`).
        var transfer: TransferEntry?

        init(path: String, kind: String, plugin: String?, status: String) {
            self.path = path
            self.kind = kind
            self.plugin = plugin
            self.status = status
        }

        /// The entry's own fields, by key (`nil` ones left out); a description cannot take these keys.
        private var own: [(key: String, value: (any Encodable)?)] {
            [
                ("path", path), ("name", name), ("kind", kind), ("plugin", plugin), ("status", status), ("bytes", bytes), ("sha256", sha256),
                ("error", error), ("errorCategory", errorCategory), ("seconds", seconds), ("warnings", warnings), ("timings", timings),
                ("transfer", transfer),
            ]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            let own = own
            let ownKeys = Set(own.map(\.key))
            for (name, value) in described.fields {
                try container.encode(value, forKey: Key(Self.key(ofDescribed: name, kind: kind, own: ownKeys, described: described)))
            }
            for (key, value) in own {
                if let value { try container.encode(value, forKey: Key(key)) }
            }
        }

        /// The key a described field goes under: its name, or, for the name of one of the entry's
        /// own fields (`name`, `bytes`, ... whether or not this entry has it), the asset's kind
        /// before it (`palette.name`), again while that is taken, so that no field is lost.
        static func key(ofDescribed name: String, kind: String, own: Set<String>, described: DescriptionFields) -> String {
            var key = name
            while own.contains(key) || (key != name && described[key] != nil) { key = "\(kind).\(key)" }
            return key
        }

        /// A key by its name: the entry's own and its description's.
        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }

            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
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
        /// The SHA-256 of the cached version a patched pack came from.
        var patchedFrom: String?
        /// The entries of a patched pack that came as deltas (`entries`, `bytes`, `entryBytes`).
        var deltas: AssetTransfer.Deltas?

        init(_ transfer: AssetTransfer) {
            url = transfer.url
            networkBytes = transfer.networkBytes
            cacheBytes = transfer.cacheBytes
            seconds = transfer.duration / .seconds(1)
            attempts = transfer.attempts
            resumedAt = transfer.resumedAt
            restart = transfer.restart?.rawValue
            patchedFrom = transfer.patchedFrom
            deltas = transfer.deltas
        }
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
        report: PreloadReport, requested: [AssetResult], registry: PluginRegistry, digests: [String: AssetChecksums],
        packs: PackContents, warnings: ShownWarnings, notices: [ManifestNotice] = [], budgeted: Bool = false
    ) {
        func entry(for result: AssetResult) -> AssetEntry {
            var entry = Self.entry(for: result, registry: registry, checksums: digests[result.request.path])
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

    static func entry(for result: AssetResult, registry: PluginRegistry, checksums: AssetChecksums?) -> AssetEntry {
        let kind =
            result.outcome.asset?.kind.rawValue
            ?? result.plugin.flatMap { registry.plugin(identifier: $0)?.assetKind.rawValue } ?? "unknown"
        var entry = AssetEntry(path: result.request.path, kind: kind, plugin: result.plugin, status: result.outcome.status)
        if result.request.name != result.request.path { entry.name = result.request.name }
        switch result.outcome {
        case .loaded:
            entry.bytes = result.shownBytes
            entry.seconds = result.duration / .seconds(1)
            entry.sha256 = checksums?.whole
            entry.described = result.shownDescription(checksums: checksums)?.fields ?? DescriptionFields()
        case .failed(let error):
            entry.error = error.description
            entry.errorCategory = error.category.rawValue
        case .cancelled:
            break
        }
        return entry
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
