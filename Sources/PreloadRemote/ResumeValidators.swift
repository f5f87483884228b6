#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The validators a `200` response came with (`ETag`, `Last-Modified`, and its `Date`, which
/// says whether `Last-Modified` is strong), and the one a download resumes against with
/// `If-Range` (RFC 9110 §13.1.5): a strong ETag; else a strong `Last-Modified`; never a weak
/// ETag (`W/"…"`, as nginx gives a gzipped file), which a server compares strongly and so never
/// matches: it would answer every resume with the whole file.
struct ResumeValidators: Sendable, Hashable {
    var etag: String?
    var lastModified: String?
    var date: String?

    /// The validators in a response's headers (names lowercase).
    init(headers: [String: String]) {
        self.init(etag: headers["etag"], lastModified: headers["last-modified"], date: headers["date"])
    }

    init(etag: String? = nil, lastModified: String? = nil, date: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.date = date
    }

    /// The `If-Range` value a resume sends, or `nil` when the response gave nothing to resume
    /// against safely. `Last-Modified` counts only when strong (RFC 9110 §8.8.2.2): the response's
    /// `Date` is at least a second after it, so that a file changed within that second cannot
    /// keep the same date.
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        guard let lastModified, let modified = Self.seconds(lastModified), let sent = date.flatMap(Self.seconds), sent - modified >= 1 else {
            return nil
        }
        return lastModified
    }

    /// The seconds since 1970 of an HTTP-date in the preferred form (`Sun, 06 Nov 1994 08:49:37
    /// GMT`, RFC 9110 §5.6.7), or `nil` for anything else.
    static func seconds(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int32(parts[1]), let year = Int32(parts[3]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = Int32(month)
        fields.tm_mday = day
        fields.tm_hour = clock[0]
        fields.tm_min = clock[1]
        fields.tm_sec = clock[2]
        return Int64(timegm(&fields))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
