import Foundation

/// What the cache knows, as its `index.json` holds it: for each URL, the file it last gave (by
/// SHA-256), the validators the server sent with it, and when it was last used; and for each
/// download cut short, where its bytes so far are.
struct RemoteCacheIndex: Codable, Sendable {
    /// A URL whose file is in the cache.
    struct Entry: Codable, Sendable, Hashable {
        /// The SHA-256 of the file (lowercase hex): with ``suffix``, its name in `blobs/`.
        var sha256: String
        var size: Int64
        /// The file name's extension (`.png`, or empty), so that plugins claim the copy by it.
        var suffix: String
        /// The server's ETag for it, for `If-None-Match`.
        var etag: String?
        /// The server's `Last-Modified` for it, for `If-Modified-Since` when it gave no ETag.
        var lastModified: String?
        /// When it was last asked for (seconds since 1970): the least recently used goes first.
        var lastUsed: Double
    }

    /// A download cut short, kept to resume with `Range` and `If-Range` (``ResumeValidators``),
    /// or with `Range` alone when the file's SHA-256 was promised (the check at the end catches a
    /// file that changed between). One kept with neither is only a record: the next download
    /// drops it and says why it starts over.
    struct Partial: Codable, Sendable, Hashable {
        /// Its file in `partial/` (a random name).
        var file: String
        /// The validators of the response it is part of (`date`: that response's `Date`).
        var etag: String?
        var lastModified: String?
        var date: String?
        /// The SHA-256 the download was promised, if any: a download promised another one
        /// is of another file, and does not take these bytes.
        var sha256: String?
        /// The whole file's size, as the response said.
        var totalSize: Int64?
        var lastUsed: Double

        /// Its validators as the response gave them.
        var validators: ResumeValidators { ResumeValidators(etag: etag, lastModified: lastModified, date: date) }
    }

    var version = 1
    var entries: [String: Entry] = [:]
    var partials: [String: Partial] = [:]

    /// The index without what no process of this cache writes: a file name that is not a
    /// SHA-256 with a plain extension, or not a partial download's name, would make a path
    /// outside the cache's folders (a hand-edited or damaged `index.json` deletes nothing else).
    func validated() -> RemoteCacheIndex {
        var valid = self
        valid.entries = entries.filter { _, entry in
            entry.sha256.count == 64 && entry.sha256.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
                && (entry.suffix.isEmpty
                    || (entry.suffix.first == "." && entry.suffix.count <= 17
                        && entry.suffix.dropFirst().allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }))
                && entry.size >= 0
        }
        valid.partials = partials.filter { _, partial in
            partial.file.hasSuffix(".part") && (6...64).contains(partial.file.count)
                && partial.file.dropLast(5).utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || $0 == UInt8(ascii: "-") }
        }
        return valid
    }

    /// The blob file name of `entry`.
    static func blobName(_ entry: Entry) -> String { entry.sha256 + entry.suffix }

    /// Every blob some entry names.
    var blobNames: Set<String> { Set(entries.values.map(Self.blobName)) }

    /// The bytes of distinct blobs the entries name.
    var blobBytes: Int64 {
        var seen = Set<String>()
        return entries.values.reduce(0) { total, entry in seen.insert(Self.blobName(entry)).inserted ? total + entry.size : total }
    }

    /// URLs to forget, least recently used first, until the distinct blobs left weigh at most
    /// `limit` bytes (partial downloads count too, and go first); the entry for `keeping` stays.
    mutating func evict(toFit limit: Int64, keeping: Set<String>) -> (blobs: [String], partials: [String]) {
        var removedPartials: [String] = []
        var total = blobBytes + partials.values.reduce(0) { $0 + ($1.totalSize ?? 0) }
        for (url, partial) in partials.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where total > limit && !keeping.contains(url) {
            partials[url] = nil
            removedPartials.append(partial.file)
            total -= partial.totalSize ?? 0
        }
        var removedBlobs: [String] = []
        guard total > limit else { return (removedBlobs, removedPartials) }
        for (url, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where !keeping.contains(url) {
            guard total > limit else { break }
            entries[url] = nil
            let name = Self.blobName(entry)
            if !entries.values.contains(where: { Self.blobName($0) == name }) {
                removedBlobs.append(name)
                total -= entry.size
            }
        }
        return (removedBlobs, removedPartials)
    }
}
