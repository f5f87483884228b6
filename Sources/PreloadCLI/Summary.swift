import Foundation
import Preload
import PreloadManifest

/// The readable summary `preload` prints when not asked for JSON.
struct Summary {
    let report: PreloadReport
    /// How many of the requested results loaded, failed and were cancelled.
    let counts: (loaded: Int, failed: Int, cancelled: Int)
    /// The requested results that failed.
    let failures: [AssetResult]
    /// The report's requested results, for `verbose` (which lists each).
    let requested: [AssetResult]
    let digests: [String: AssetChecksums]
    let packs: PackContents
    let warnings: ShownWarnings
    let verbose: Bool
    /// What the manifest lists but will not load.
    var notices: [ManifestNotice] = []
    /// Whether warnings (a manifest's included) fail.
    var isStrict = false

    var text: String {
        var lines: [String] = []
        let total = counts.loaded + counts.failed + counts.cancelled
        var headline = "Loaded \(counts.loaded) of \(counted(total, "asset"))"
        // A pack is one asset, loaded even when some of its entries are not: they are counted too,
        // so that the headline agrees with the FAIL lines and the exit status.
        let entries = packs.packs.isEmpty ? nil : packs.entryCounts
        if let entries {
            let entryTotal = entries.loaded + entries.failed + entries.cancelled
            headline += " (\(entries.loaded) of \(counted(entryTotal, "pack entry", plural: "pack entries")))"
        }
        headline += " in \(Self.seconds(report.elapsed / .seconds(1)))"
        headline += ": \(Self.bytes(report.decodedBytes)) decoded"
        // What failed leads: a pack with one damaged entry is one asset loaded, and must not read
        // as a success.
        let failed = [(counts.failed, "asset", "assets"), (entries?.failed ?? 0, "pack entry", "pack entries")].filter { $0.0 > 0 }
        if !failed.isEmpty {
            headline = "FAILED " + failed.map { counted($0.0, $0.1, plural: $0.2) }.joined(separator: ", ") + "; l" + headline.dropFirst()
        }
        lines.append(headline)
        if let failed = Self.tally(assets: counts.failed, entries: entries?.failed ?? 0) { lines.append("  failed:    " + failed) }
        if let cancelled = Self.tally(assets: counts.cancelled, entries: entries?.cancelled ?? 0) { lines.append("  cancelled: " + cancelled) }
        lines += Self.skippedLines(of: report)
        if let fetched = Self.transferLine(of: report) { lines.append(fetched) }
        let unsupported = notices.filter { !$0.isWarning }
        if !unsupported.isEmpty {
            let types = Dictionary(grouping: unsupported, by: \.type).map { "\($0.key) \($0.value.count)" }.sorted()
            lines.append(
                "  skipped:   \(unsupported.count) manifest entr\(unsupported.count == 1 ? "y" : "ies") no plugin loads (\(types.joined(separator: ", ")))"
            )
        }
        if warnings.count > 0 {
            let assets = warnings.assetCount
            lines.append(
                "  warnings:  \(warnings.count) in \(assets) asset\(assets == 1 ? "" : "s")"
                    + (verbose ? "" : " (--verbose lists them; --strict fails them)"))
        }
        if verbose {
            for result in requested.loaded {
                lines.append("  ok    " + describe(result))
                lines += warningLines(for: result.request.path)
                for entry in packs.entryAssets[result.request.path] ?? [] where entry.outcome.asset != nil {
                    lines.append("  ok    " + describe(entry))
                    lines += warningLines(for: entry.request.path)
                }
            }
            for path in report.skippedPaths where report.skipReasons[path] == nil { lines.append("  skip  \(path): no loader plugin claims it") }
        }
        for result in failures {
            lines.append("  FAIL  \(result.outcome.error?.description ?? result.request.path)")
        }
        for entry in packs.failedEntries {
            lines.append("  FAIL  \(entry.outcome.error?.description ?? entry.path)")
        }
        if verbose { lines += unsupported.map { "  skip  \($0)" } }
        lines += notices.filter(\.isWarning).map { (isStrict ? "  FAIL  " : "  warning: ") + $0.description }
        return lines.map(\.visibleInTerminal).joined(separator: "\n")
    }

    /// How many paths of the folders `report` walked were skipped, and why, and each one that is
    /// not a file: named even without --verbose, as it is not an asset nobody claims and may be
    /// a mistake (a pipe left by a tool, a link to a folder). Nothing when none was.
    static func skippedLines(of report: PreloadReport) -> [String] {
        let skipped = report.skippedPaths
        let notFiles = skipped.filter { report.skipReasons[$0] != nil }
        guard !skipped.isEmpty else { return [] }
        guard !notFiles.isEmpty else { return ["  skipped:   \(skipped.count) (no loader plugin claims them)"] }
        let kinds = "\(skipped.count - notFiles.count) no loader plugin claims, \(notFiles.count) not \(notFiles.count == 1 ? "a file" : "files")"
        return ["  skipped:   \(skipped.count) (\(kinds))"] + notFiles.map { "  skip  \($0): \(report.skipReasons[$0] ?? "")" }
    }

    /// How many assets and pack entries failed (or were cancelled): the bare number when only
    /// assets did (`2`), each named when entries did (`1 pack entry`, `2 assets, 1 pack entry`);
    /// `nil` when none did.
    static func tally(assets: Int, entries: Int) -> String? {
        switch (assets, entries) {
        case (0, 0): nil
        case (_, 0): "\(assets)"
        case (0, _): counted(entries, "pack entry", plural: "pack entries")
        default: "\(counted(assets, "asset")), \(counted(entries, "pack entry", plural: "pack entries"))"
        }
    }

    private func warningLines(for path: String) -> [String] {
        warnings.items(for: path).map { "        warning: " + $0.text(listedAs: path) }
    }

    private func describe(_ result: AssetResult) -> String {
        var text = result.request.name == result.request.path ? result.request.path : "\(result.request.name) (\(result.request.path))"
        let checksums = digests[result.request.path]
        if let summary = result.shownDescription(checksums: checksums)?.summary { text += "  \(summary)" }
        text += "  \(Self.bytes(result.shownBytes))  \(Self.seconds(result.duration / .seconds(1)))"
        if let digest = checksums?.whole { text += "  sha256=\(digest)" }
        return text
    }

    /// `  fetched:   3 files: 1.2 MB from the network, 300.0 KB from the cache`, for a batch
    /// that fetched remote files (and how many packs were patched from their cached version).
    static func transferLine(of report: PreloadReport) -> String? {
        let transfers = report.transfers
        guard !transfers.isEmpty else { return nil }
        let network = transfers.reduce(Int64(0)) { $0 + $1.networkBytes }, cached = transfers.reduce(Int64(0)) { $0 + $1.cacheBytes }
        let patched = transfers.filter { $0.patchedFrom != nil }
        let whose = patched.count == 1 ? "its" : "their"
        let patches = patched.isEmpty ? "" : " (\(counted(patched.count, "pack")) patched from \(whose) cached version)"
        return "  fetched:   \(counted(transfers.count, "file")): \(bytes(Int(network))) from the network, \(bytes(Int(cached))) from the cache"
            + patches
    }

    static func bytes(_ count: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : String(format: "%.2f s", value)
    }
}
