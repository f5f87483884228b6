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
/// ``apply(_:to:verify:progress:)`` updates it entry by entry: the changed and new entries are fetched
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
        // What the check brings goes to a file beside the installed pack, at its offsets: the
        // header and the index, or the whole pack from a server that ignores Range (never in memory).
        let received = installed + ".new"
        let descriptor = open(received, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fetch(.cache("cannot write \(received): \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var keep = false
        defer { if !keep { unlink(received) } }
        func bytes(_ range: Range<UInt64>) throws(PackUpdateError) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: range.count)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, range.count, off_t(range.lowerBound)) }
            guard count == range.count else { throw .notAPack("\(url): the answer ends before byte \(range.upperBound)") }
            return bytes
        }
        let headerSize = UInt64(BakedFormat.headerSize)
        let head: StreamedRanges
        var etag: String?
        do {
            head = try await fetcher.streamRanges([0..<headerSize], of: url, ifRange: nil, length: .max, into: descriptor, whole: true) { _ in }
            etag = head.etag
        } catch { throw .fetch(error) }
        let header = try bytes(0..<headerSize)
        guard header.starts(with: BakedFormat.magic) else { throw .notAPack(url) }
        let installedHeader = Self.header(of: installed)
        if head.status == 200 {
            keep = header != installedHeader
            return PackUpdate(
                url: url, installed: installed, kind: keep ? .whole("the server ignores Range: the whole pack came with the check") : .upToDate,
                diff: nil, packLength: head.received, checkedBytes: head.received, etag: etag, header: [], index: [], wholeFile: keep ? received : nil
            )
        }
        let (length, indexOffset, indexLength) = header.withUnsafeBytes {
            (
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 24, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
            )
        }
        func update(_ kind: PackUpdate.Kind, diff: BakedPackDiff? = nil, index: [UInt8] = [], checked: UInt64) -> PackUpdate {
            PackUpdate(
                url: url, installed: installed, kind: kind, diff: diff, packLength: length, checkedBytes: checked, etag: etag, header: header,
                index: index, wholeFile: nil)
        }
        if header == installedHeader { return update(.upToDate, checked: head.received) }
        guard indexLength < 1 << 31, indexOffset <= length, indexLength <= length - indexOffset else {
            throw .notAPack("\(url): its header places the index outside the file")
        }
        let tail: StreamedRanges
        do {
            tail = try await fetcher.streamRanges([indexOffset..<indexOffset + indexLength], of: url, ifRange: etag, length: length, into: descriptor)
            { _ in }
        } catch { throw .fetch(error) }
        let checked = head.received + tail.received
        if tail.refusedWhole { return update(.whole("the pack changed on the server during the check"), checked: checked) }
        let index = try bytes(indexOffset..<indexOffset + indexLength)
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
    /// ``PackUpdateError/failedItsCheck(_:)``). `progress` is told the bytes that move as they
    /// arrive (entries, deltas, or the whole pack; in all, about ``PackUpdate/bytesToMove``),
    /// for a bar that counts what moves rather than the pack's size.
    @discardableResult
    public func apply(
        _ update: PackUpdate, to destination: String? = nil, verify: (String) throws -> Void = { _ in },
        progress: @escaping @Sendable (_ bytes: UInt64) -> Void = { _ in }
    ) async throws(PackUpdateError) -> PackUpdateResult {
        let destination = destination ?? update.installed
        var result: PackUpdateResult
        switch update.kind {
        case .upToDate:
            if destination != update.installed { try Self.install(copyOf: update.installed, at: destination) }
            return PackUpdateResult(
                path: destination, previous: nil, networkBytes: 0, requests: 0, reusedBytes: update.packLength, resumedBytes: 0, wasWhole: false)
        case .whole:
            var source = update.wholeFile ?? destination + ".patch"
            var moved: UInt64 = 0
            if update.wholeFile == nil || access(source, F_OK) != 0 {
                // The whole pack, streamed to DEST.patch as it arrives (a plain GET: no Range).
                source = destination + ".patch"
                let descriptor = open(source, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw .fetch(.cache("cannot write \(source): \(String(cString: strerror(errno)))")) }
                defer { close(descriptor) }
                do {
                    moved = try await fetcher.streamRanges([], of: update.url, ifRange: nil, length: .max, into: descriptor, whole: true) {
                        progress(UInt64($0.count))
                    }
                    .received
                } catch {
                    unlink(source)
                    throw .fetch(error)
                }
            }
            let previous = try Self.installWhole(source, at: destination)
            result = PackUpdateResult(
                path: destination, previous: previous, networkBytes: moved, requests: moved > 0 ? 1 : 0, reusedBytes: 0, resumedBytes: 0,
                wasWhole: true)
        case .patch:
            result = try await patch(update, to: destination, progress: progress)
        }
        do { try verify(destination) } catch {
            if result.previous != nil { try Self.rollBack(destination) }
            throw .failedItsCheck("\(error)")
        }
        return result
    }

    /// Puts back the pack that the last ``apply(_:to:verify:progress:)`` at `path` replaced
    /// (`PATH.previous`).
    public static func rollBack(_ path: String) throws(PackUpdateError) {
        guard rename(path + ".previous", path) == 0 else {
            throw .cannotRollBack("\(path).previous: \(String(cString: strerror(errno)))")
        }
    }

    // MARK: The patch

    private func patch(
        _ update: PackUpdate, to destination: String, progress: @escaping @Sendable (UInt64) -> Void
    ) async throws(PackUpdateError) -> PackUpdateResult {
        guard let diff = update.diff else { throw .patch(.notTheDiffsPack("no diff")) }
        let journal: PatchJournal
        do { journal = try PatchJournal(destination: destination, header: update.header, length: update.packLength) } catch { throw .fetch(error) }
        var requests = 0
        var received: UInt64 = 0
        var damaged: Set<String> = []
        var deltas = PackDeltaUse()
        while true {
            let wanted = await fetchDeltas(update, into: journal, use: &deltas, progress: progress)  // rebuilt from deltas; the ranges left
            let fetched = try await fetchMissing(wanted, of: update, into: journal, progress: progress)
            requests += fetched.requests
            received += fetched.received
            journal.save()
            let previous = Self.keepPrevious(destination)
            do {
                try BakedPackPatch.apply(
                    diff, header: update.header, index: update.index, old: update.installed, fetchedFile: journal.dataPath, to: destination)
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
                path: destination, previous: previous, networkBytes: received, requests: requests,
                reusedBytes: diff.reused.reduce(0) { $0 + UInt64($1.target.count) }, resumedBytes: journal.resumedBytes, wasWhole: false)
            return deltas.counted(in: result)
        }
    }

    /// Fetches the parts of `wanted` the journal lacks, as few requests as the server allows
    /// (several ranges a request, ``RemoteFetcher/requestGroups(_:perRequest:)``; one a request,
    /// `wanted`'s merged neighbours, from a server that answers several with the whole file),
    /// each byte written as it arrives; a cut transfer is asked again from where it stopped,
    /// until ``RetryPolicy/attempts`` attempts in a row bring nothing or
    /// ``RetryPolicy/maxRequests`` requests were made. Returns the requests made and the body
    /// bytes they brought.
    private func fetchMissing(
        _ wanted: [Range<UInt64>], of update: PackUpdate, into journal: PatchJournal, progress: @escaping @Sendable (UInt64) -> Void
    ) async throws(PackUpdateError) -> (requests: Int, received: UInt64) {
        var (requests, received, fruitless) = (0, UInt64(0), 0)
        var perRequest = RemoteFetcher.rangesPerRequest.count
        let policy = fetcher.configuration.retries
        while case let missing = journal.missing(wanted), !missing.isEmpty {
            let (before, ranges) = (journal.addedBytes, perRequest)
            var failure: RemoteFetchError?
            do throws(RemoteFetchError) {
                for group in RemoteFetcher.requestGroups(missing, perRequest: perRequest) {
                    requests += 1
                    let answer = try await fetcher.streamRanges(
                        group, of: update.url, ifRange: update.etag, length: update.packLength, into: journal.descriptor
                    ) {
                        journal.add($0)
                        progress(UInt64($0.count))
                    }
                    received += answer.received
                    guard answer.refusedWhole else { continue }
                    guard group.count > 1 else {
                        throw RemoteFetchError.mismatch(
                            "\(update.url): the server sent the whole file, not the range (it ignores Range, or the file changed)")
                    }
                    perRequest = 1  // it takes one range a request (nginx's max_ranges 1 answers more with the whole file)
                    break
                }
            } catch { failure = error }
            if let failure {
                journal.save()
                guard case .transfer = failure else { throw .fetch(failure) }
            }
            fruitless = journal.addedBytes > before || perRequest != ranges ? 0 : fruitless + 1
            guard fruitless < max(1, policy.attempts), failure == nil || requests < policy.maxRequests else {
                let first = missing[0]
                throw .fetch(
                    failure ?? .mismatch("\(update.url): the server's answers do not hold bytes \(first.lowerBound)-\(first.upperBound - 1)"))
            }
            if failure != nil { try? await Task.sleep(for: policy.initialDelay) }
        }
        return (requests, received)
    }

    // MARK: Files

    /// Hard-links `path` to `path.previous` (replacing an older one); `nil` if there is no file
    /// at `path`.
    static func keepPrevious(_ path: String) -> String? {
        let previous = path + ".previous"
        unlink(previous)
        return link(path, previous) == 0 ? previous : nil
    }

    /// Copies the file at `source` to `path` atomically (by the kernel, ``FileRangeCopy``).
    private static func install(copyOf source: String, at path: String) throws(PackUpdateError) {
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .patch(.oldPack("cannot read \(source): \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .patch(.oldPack("cannot read \(source): \(String(cString: strerror(errno)))")) }
        do {
            let file = try AtomicFile(path: path)
            try file.append(from: descriptor, at: 0, count: Int(status.st_size))
            try file.commit()
        } catch { throw .patch(.cannotWrite("\(error)")) }
    }

    /// Puts the whole new pack at `source` in place at `path` once its header and index check
    /// (flushed to disk, then renamed; the pack replaced kept as `PATH.previous`). Returns that
    /// path, `nil` if there was no pack at `path`.
    private static func installWhole(_ source: String, at path: String) throws(PackUpdateError) -> String? {
        do {
            _ = try FileMapping(path: source).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        } catch let error as BakedPackError {
            unlink(source)
            throw .patch(.newPack(error))
        } catch {
            unlink(source)
            throw .notAPack("\(source): \(error)")
        }
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else { throw .patch(.cannotWrite("\(source): \(String(cString: strerror(errno)))")) }
        close(descriptor)
        let previous = keepPrevious(path)
        guard rename(source, path) == 0 else { throw .patch(.cannotWrite("\(path): \(String(cString: strerror(errno)))")) }
        return previous
    }

    /// The first ``BakedFormat/headerSize`` bytes of the file at `path`, if it has them.
    private static func header(of path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: BakedFormat.headerSize), data.count == BakedFormat.headerSize else { return nil }
        return Array(data)
    }
}
