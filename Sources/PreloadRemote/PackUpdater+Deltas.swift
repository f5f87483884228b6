import Foundation
import Preload
import PreloadBaked

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The deltas published beside a pack (`preload patch`; `BakedPackDelta`): the check reads the
/// outline of the delta file for the installed version, if there is one (a missing one is
/// normal: the entries come whole, silently; a damaged one, or one for other versions, the same
/// with ``PackUpdate/deltaWarning``), and picks each entry's delta where it is smaller than the
/// entry; the apply fetches those deltas, rebuilds each entry against the installed one, checks
/// its CRC-32 and keeps it in the journal as if it had been fetched. A delta that does not give
/// its entry costs that entry a fetch of its own bytes: it never lands.
extension PackUpdater {
    /// The URL of the deltas published beside the pack at `url` for the version whose header
    /// is `header`: `PACK.deltas/<identity>` (a query stays at the end).
    static func deltaURL(_ url: String, installedHeader header: [UInt8]) -> String {
        let name = ".deltas/" + BakedPackDelta.identity(ofPackHeader: header)
        guard let query = url.firstIndex(of: "?") else { return url + name }
        return url[..<query] + name + url[query...]
    }

    /// `update` (a patch) with the deltas published for its installed version, where smaller.
    func withDeltas(_ update: PackUpdate, installed: BakedIndex, installedHeader: [UInt8]?) async -> PackUpdate {
        guard let header = installedHeader, let diff = update.diff, !diff.fetched.isEmpty else { return update }
        var update = update
        let url = Self.deltaURL(update.url, installedHeader: header)
        func warned(_ why: String) -> PackUpdate {
            update.deltaWarning = "\(url): \(why); the changed entries come whole"
            return update
        }
        let delta: BakedPackDelta
        let etag: String?
        do {
            let size = UInt64(BakedPackDelta.headerSize)
            update.deltaCheckRequests += 1  // a request made, answered or not (a 404 too)
            let head = try await fetcher.fetchRanges([0..<size], of: url)
            update.checkedBytes += head.networkBytes
            etag = head.etag
            guard let headBytes = head.wholeFile ?? head.parts.first?.bytes else { return warned("no answer") }
            let length = try headBytes.withUnsafeBytes { try BakedPackDelta.recordsLength(inHeader: $0) }
            let records: [UInt8]
            if let whole = head.wholeFile {
                guard UInt64(whole.count) >= size + length else { return warned("the file ends inside its records") }
                records = Array(whole[Int(size)..<Int(size + length)])
            } else if length == 0 {
                records = []  // none smaller: nothing to ask
            } else {
                update.deltaCheckRequests += 1
                let tail = try await fetcher.fetchRanges([size..<size + length], of: url, ifRange: head.etag)
                update.checkedBytes += tail.networkBytes
                guard !tail.cameWhole, let bytes = tail.parts.first?.bytes else { return warned("the file changed on the server during the check") }
                records = bytes
            }
            delta = try headBytes.withUnsafeBytes { head in
                try records.withUnsafeBytes { try BakedPackDelta(header: UnsafeRawBufferPointer(rebasing: head.prefix(Int(size))), records: $0) }
            }
        } catch let error as RemoteFetchError {
            if case .status(let status, _) = error, status == 404 || status == 410 { return update }  // none published: the usual case
            return warned("\(error)")
        } catch {
            return warned("\(error)")
        }
        guard delta.oldHeader == header, delta.newHeader == update.header else { return warned("the deltas are for other versions of the pack") }
        update.deltas = Self.choose(delta, for: diff, installed: installed, url: url, etag: etag)
        return update
    }

    /// The deltas of `delta` smaller than their entry of `diff` and made against the entry
    /// `installed` has, and the ranges of the pack left to fetch; `nil` when no delta is chosen.
    private static func choose(_ delta: BakedPackDelta, for diff: BakedPackDiff, installed: BakedIndex, url: String, etag: String?) -> PackDeltas? {
        let byName = Dictionary(delta.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let fetched = diff.fetched
        var chosen: [String: PackDeltas.Chosen] = [:]
        for piece in fetched {
            guard let entry = byName[piece.name], entry.length == UInt64(piece.target.count), entry.checksum == piece.checksum,
                entry.delta.count < piece.target.count, let reference = installed.entry(named: entry.reference)?.record,
                reference.dataLength == entry.referenceLength, reference.dataChecksum == entry.referenceChecksum
            else { continue }
            chosen[piece.name] = .init(
                entry: entry, target: piece.target, reference: reference.dataOffset..<reference.dataOffset + reference.dataLength)
        }
        // Each range of the diff, trimmed to the entries in it that come whole; a delta's entry
        // still inside a range kept comes with it (its bytes are fetched anyway).
        var requests: [Range<UInt64>] = []
        for request in diff.requests {
            let inside = fetched.filter { request.contains($0.target.lowerBound) }
            let whole = inside.filter { chosen[$0.name] == nil }
            guard let first = whole.first, let last = whole.last else { continue }
            let kept = first.target.lowerBound..<last.target.upperBound
            requests.append(kept)
            for piece in inside where kept.contains(piece.target.lowerBound) { chosen[piece.name] = nil }
        }
        guard !chosen.isEmpty else { return nil }
        let ordered = chosen.values.sorted { $0.entry.delta.lowerBound < $1.entry.delta.lowerBound }
        return PackDeltas(url: url, etag: etag, requests: requests, chosen: ordered)
    }

    /// Rebuilds into `journal` the entries of `update` that come as deltas and that it lacks;
    /// returns the ranges of the pack still to fetch: the entries without deltas, and those
    /// whose delta could not be fetched or did not give the entry (a warning each).
    func fetchDeltas(
        _ update: PackUpdate, into journal: PatchJournal, use: inout PackDeltaUse, progress: @Sendable (UInt64) -> Void
    ) async -> [Range<UInt64>] {
        guard let deltas = update.deltas else { return update.diff?.requests ?? [] }
        let missing = deltas.chosen.filter { !journal.missing([$0.target]).isEmpty }
        guard !missing.isEmpty else { return deltas.requests }
        var wanted = deltas.requests
        var ranges: [Range<UInt64>] = []  // touching deltas asked as one range
        for range in missing.map(\.entry.delta) {
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        do {
            let fetched = try await fetcher.fetchRanges(ranges, of: deltas.url, ifRange: deltas.etag)
            use.requests += fetched.requests
            use.bytes += fetched.networkBytes
            progress(ranges.reduce(0) { $0 + UInt64($1.count) })
            let old = try FileMapping(path: update.installed)
            for piece in missing {
                do {
                    try rebuild(piece, from: fetched.parts, against: old, into: journal)
                    use.entries += 1
                    use.entryBytes += piece.entry.length
                } catch {
                    use.warnings.append("\(deltas.url): \(error); fetched whole instead")
                    wanted.append(piece.target)
                }
            }
        } catch {
            use.warnings.append("\(deltas.url): \(error); \(missing.count) entries fetched whole instead")
            wanted += missing.map(\.target)
        }
        return wanted.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Rebuilds `piece`'s entry from its delta (in `parts`) against the installed pack `old`,
    /// checked, and writes it into `journal` at its place in the new pack.
    private func rebuild(_ piece: PackDeltas.Chosen, from parts: [FetchedRanges.Part], against old: FileMapping, into journal: PatchJournal) throws {
        let delta = piece.entry.delta
        guard let part = parts.first(where: { $0.range.lowerBound <= delta.lowerBound && $0.range.upperBound >= delta.upperBound }),
            UInt64(part.bytes.count) == UInt64(part.range.count)
        else { throw BakedDeltaError.notADelta("entry '\(piece.entry.name)': its delta is not in the answer") }
        guard piece.reference.upperBound <= UInt64(old.count) else { throw BakedDeltaError.wrongReference(entry: piece.entry.name) }
        let start = Int(delta.lowerBound - part.range.lowerBound)
        let bytes = try part.bytes.withUnsafeBytes { fetched in
            try old.withUnsafeBytes(offset: Int(piece.reference.lowerBound), count: piece.reference.count) { reference in
                try BakedPackDelta.rebuild(
                    piece.entry, delta: UnsafeRawBufferPointer(rebasing: fetched[start..<start + delta.count]), against: reference)
            }
        }
        let written = bytes.withUnsafeBytes { pwrite(journal.descriptor, $0.baseAddress, $0.count, off_t(piece.target.lowerBound)) }
        guard written == bytes.count else { throw RemoteFetchError.cache("cannot keep a rebuilt entry in \(journal.dataPath)") }
        journal.add(piece.target, counted: false)
    }
}
