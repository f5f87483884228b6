import Foundation
import Preload
import PreloadBaked

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A game's updater for its baked packs, over any plain HTTP server: ``check(_:installed:)``
/// asks whether the pack at a URL is newer than the installed one and what updating would move
/// (the new pack's header, then its index: two small `Range` requests), and
/// ``apply(_:to:verify:)`` updates it entry by entry: the changed and new entries are fetched
/// with `Range` and `If-Range` (`PreloadBaked`'s `BakedPackDiff`), the rest is copied from the installed pack,
/// every entry and the whole are checked (`BakedPackPatch`), and the new pack is renamed into
/// place. A process that has the old pack mapped keeps reading the old bytes (the rename gives
/// the path a new file; the old one lives while it is mapped).
///
/// - **Resume**: what arrived is kept beside the destination (`DEST.patch` and
///   `DEST.patch.json`) as it arrives; a cut transfer is asked again from where it stopped
///   (up to ``RetryPolicy/attempts`` cuts in a row that bring nothing new, and
///   ``RetryPolicy/maxRequests`` requests in all), and an apply that
///   gives up, or a process killed midway, goes on where it stopped the next time.
/// - **Roll back**: the pack replaced is kept as `DEST.previous`; ``rollBack(_:)`` puts it back,
///   and `apply` does so itself when the new pack fails `verify`.
/// - A server that ignores `Range` sends the whole pack with the check, and ``PackUpdate/kind``
///   says so (``PackUpdate/Kind/whole(_:)``).
///
/// ```swift
/// import PreloadRemote
///
/// let updater = PackUpdater(fetcher: RemoteFetcher(cache: try RemoteCache(folder: RemoteCache.defaultFolder)))
/// let update = try await updater.check("https://example.com/levels/level1.bake", installed: "levels/level1.bake")
/// if update.kind != .upToDate {
///     print("\(update.bytesToMove) bytes to fetch, \(update.bytesSaved) taken from the installed pack")
///     let done = try await updater.apply(update) { path in
///         // The game's own check of the new pack (load it, say); throwing puts the old one back.
///     }
///     print("updated: \(done.networkBytes) bytes in \(done.requests) requests")
/// }
/// ```
public struct PackUpdater: Sendable {
    /// The fetcher whose transport, `User-Agent` and retry policy the updater uses (it does not
    /// use its cache: the packs are where the game keeps them).
    public let fetcher: RemoteFetcher

    /// An updater fetching through `fetcher`.
    public init(fetcher: RemoteFetcher) { self.fetcher = fetcher }

    /// Whether the pack at `url` differs from the one at `installed`, and what updating would
    /// move. Reads the new pack's header and index only (or the whole file, from a server that
    /// ignores `Range`).
    public func check(_ url: String, installed: String) async throws(PackUpdateError) -> PackUpdate {
        let headerSize = UInt64(BakedFormat.headerSize)
        let head: FetchedRanges
        do { head = try await fetcher.fetchRanges([0..<headerSize], of: url) } catch { throw .fetch(error) }
        let installedHeader = Self.header(of: installed)
        if let whole = head.wholeFile {
            guard whole.starts(with: BakedFormat.magic) else { throw .notAPack(url) }
            let same = installedHeader != nil && whole.prefix(BakedFormat.headerSize).elementsEqual(installedHeader!)
            return PackUpdate(
                url: url, installed: installed, kind: same ? .upToDate : .whole("the server ignores Range: the whole pack came with the check"),
                diff: nil, packLength: UInt64(whole.count), checkedBytes: head.networkBytes, etag: head.etag, header: [], index: [],
                wholeFile: whole)
        }
        guard let header = head.parts.first?.bytes, header.starts(with: BakedFormat.magic) else { throw .notAPack(url) }
        let (length, indexOffset, indexLength) = header.withUnsafeBytes {
            (
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 24, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
            )
        }
        func update(_ kind: PackUpdate.Kind, diff: BakedPackDiff? = nil, index: [UInt8] = [], checked: UInt64, whole: [UInt8]? = nil) -> PackUpdate {
            PackUpdate(
                url: url, installed: installed, kind: kind, diff: diff, packLength: whole.map { UInt64($0.count) } ?? length, checkedBytes: checked,
                etag: head.etag, header: header, index: index, wholeFile: whole)
        }
        if header == installedHeader { return update(.upToDate, checked: head.networkBytes) }
        guard indexLength < 1 << 31, indexOffset <= length, indexLength <= length - indexOffset else {
            throw .notAPack("\(url): its header places the index outside the file")
        }
        let tail: FetchedRanges
        do { tail = try await fetcher.fetchRanges([indexOffset..<indexOffset + indexLength], of: url, ifRange: head.etag) } catch {
            throw .fetch(error)
        }
        let checked = head.networkBytes + tail.networkBytes
        if let whole = tail.wholeFile { return update(.whole("the pack changed on the server during the check"), checked: checked, whole: whole) }
        guard let index = tail.parts.first?.bytes else { throw .fetch(.mismatch("no index in the answer")) }
        let newIndex: BakedIndex
        do {
            newIndex = try header.withUnsafeBytes { head in
                try index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
            }
        } catch { throw .notAPack("\(url): \(error)") }
        let oldIndex: BakedIndex
        do {
            oldIndex = try FileMapping(path: installed).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        } catch {
            return update(.whole("the installed pack cannot be read: \(error)"), index: index, checked: checked)
        }
        let patch = update(.patch, diff: BakedPackDiff(old: oldIndex, new: newIndex), index: index, checked: checked)
        return await withDeltas(patch, installed: oldIndex, installedHeader: installedHeader)
    }

    /// Brings `update` about at `destination` (its installed pack's path by default): fetches
    /// what it moves, checks it, keeps the pack it replaces as `DEST.previous`, renames the new
    /// one into place, then runs `verify` on it (a throw puts the previous pack back and is
    /// ``PackUpdateError/failedItsCheck(_:)``).
    @discardableResult
    public func apply(
        _ update: PackUpdate, to destination: String? = nil, verify: (String) throws -> Void = { _ in }
    ) async throws(PackUpdateError) -> PackUpdateResult {
        let destination = destination ?? update.installed
        var result: PackUpdateResult
        switch update.kind {
        case .upToDate:
            if destination != update.installed { try Self.install(Array(try Self.read(update.installed)), at: destination) }
            return PackUpdateResult(
                path: destination, previous: nil, networkBytes: 0, requests: 0, reusedBytes: update.packLength, resumedBytes: 0, wasWhole: false)
        case .whole:
            var whole = update.wholeFile
            var moved: UInt64 = 0
            if whole == nil {
                do {
                    let fetched = try await fetcher.fetchRanges([0..<update.packLength], of: update.url)
                    whole = fetched.wholeFile ?? fetched.parts.first?.bytes
                    moved = fetched.networkBytes
                } catch { throw .fetch(error) }
            }
            let bytes = whole ?? []
            do {
                _ = try bytes.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
            } catch let error as BakedPackError { throw .patch(.newPack(error)) } catch { throw .notAPack("\(error)") }
            let previous = Self.keepPrevious(destination)
            try Self.install(bytes, at: destination)
            result = PackUpdateResult(
                path: destination, previous: previous, networkBytes: moved, requests: moved > 0 ? 1 : 0, reusedBytes: 0, resumedBytes: 0,
                wasWhole: true)
        case .patch:
            result = try await patch(update, to: destination)
        }
        do { try verify(destination) } catch {
            if result.previous != nil { try Self.rollBack(destination) }
            throw .failedItsCheck("\(error)")
        }
        return result
    }

    /// Puts back the pack that the last ``apply(_:to:verify:)`` at `path` replaced
    /// (`PATH.previous`).
    public static func rollBack(_ path: String) throws(PackUpdateError) {
        guard rename(path + ".previous", path) == 0 else {
            throw .cannotRollBack("\(path).previous: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: The patch

    private func patch(_ update: PackUpdate, to destination: String) async throws(PackUpdateError) -> PackUpdateResult {
        guard let diff = update.diff else { throw .patch(.notTheDiffsPack("no diff")) }
        let journal: PatchJournal
        do { journal = try PatchJournal(destination: destination, header: update.header, length: update.packLength) } catch { throw .fetch(error) }
        var requests = 0
        var damaged: Set<String> = []
        var deltas = PackDeltaUse()
        while true {
            let wanted = await fetchDeltas(update, into: journal, use: &deltas)  // the entries rebuilt from deltas; the ranges left
            requests += try await fetchMissing(wanted, of: update, into: journal)
            journal.save()
            var fetched: [BakedPackPatch.Fetched] = []
            do {
                for piece in diff.fetched where !piece.target.isEmpty {
                    fetched.append(BakedPackPatch.Fetched(range: piece.target, bytes: try journal.bytes(piece.target)))
                }
            } catch { throw .fetch(error) }
            let previous = Self.keepPrevious(destination)
            do {
                try BakedPackPatch.apply(diff, header: update.header, index: update.index, old: update.installed, fetched: fetched, to: destination)
            } catch {
                if let previous { unlink(previous) }
                // An entry damaged on the way (or on disk since) is fetched again, once.
                guard case .entryDamaged(let entry, _, _) = error, !damaged.contains(entry),
                    let piece = diff.fetched.first(where: { $0.name == entry })
                else { throw .patch(error) }
                damaged.insert(entry)
                journal.remove(piece.target)
                continue
            }
            journal.remove()
            let result = PackUpdateResult(
                path: destination, previous: previous, networkBytes: journal.addedBytes, requests: requests,
                reusedBytes: diff.reused.reduce(0) { $0 + UInt64($1.target.count) }, resumedBytes: journal.resumedBytes, wasWhole: false)
            return deltas.counted(in: result)
        }
    }

    /// Fetches the parts of `wanted` the journal lacks, one range a request, each written as it
    /// arrives; a cut transfer is asked again from where it stopped, until
    /// ``RetryPolicy/attempts`` attempts in a row bring nothing or ``RetryPolicy/maxRequests``
    /// requests were made. Returns the requests made.
    private func fetchMissing(_ wanted: [Range<UInt64>], of update: PackUpdate, into journal: PatchJournal) async throws(PackUpdateError) -> Int {
        var requests = 0
        var fruitless = 0
        let policy = fetcher.configuration.retries
        while case let missing = journal.missing(wanted), !missing.isEmpty {
            let before = journal.addedBytes
            do {
                for range in missing {
                    requests += 1
                    _ = try await fetcher.streamRange(range, of: update.url, ifRange: update.etag, into: journal.descriptor) { journal.add($0) }
                }
            } catch {
                journal.save()
                guard case .transfer = error else { throw .fetch(error) }
                fruitless = journal.addedBytes > before ? 0 : fruitless + 1
                guard fruitless < max(1, policy.attempts), requests < policy.maxRequests else { throw .fetch(error) }
                try? await Task.sleep(for: policy.initialDelay)
            }
        }
        return requests
    }

    // MARK: Files

    /// Hard-links `path` to `path.previous` (replacing an older one); `nil` if there is no file
    /// at `path`.
    static func keepPrevious(_ path: String) -> String? {
        let previous = path + ".previous"
        unlink(previous)
        return link(path, previous) == 0 ? previous : nil
    }

    /// Writes `bytes` to `path` atomically.
    private static func install(_ bytes: [UInt8], at path: String) throws(PackUpdateError) {
        do { try AtomicFile.write([(path, bytes)]) } catch { throw .patch(.cannotWrite("\(error)")) }
    }

    private static func read(_ path: String) throws(PackUpdateError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw .patch(.oldPack("cannot read \(path)")) }
        return data
    }

    /// The first ``BakedFormat/headerSize`` bytes of the file at `path`, if it has them.
    private static func header(of path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: BakedFormat.headerSize), data.count == BakedFormat.headerSize else { return nil }
        return Array(data)
    }
}
