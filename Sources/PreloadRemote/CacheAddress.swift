import Foundation

/// A remote cache's URL taken apart: the base requests go to (with its `user:password@`, which
/// libcurl sends as Basic credentials), the same without them to show, and the secrets that no
/// text shown may hold (the URL's user information, the values of its headers).
struct CacheAddress: Sendable {
    /// `scheme://[user:password@]host[:port][/path]`, without a trailing slash.
    let base: String
    /// ``base`` without `user:password@`.
    let display: String
    /// Strings never shown: the URL's user information and password (as written and decoded),
    /// the header values.
    private(set) var secrets: [String] = []

    /// Takes `url` apart; throws ``BazelCacheError/badURL(_:reason:)`` (showing it without its
    /// credentials) when it is not `http://` or `https://`, has no host, or has a query or
    /// fragment (the cache's paths are appended to it).
    init(_ url: String) throws(BazelCacheError) {
        let text = url.trimmingCharacters(in: .whitespaces)
        guard let separator = text.range(of: "://") else { throw .badURL(Self.hidingCredentials(text), reason: "it has no http:// or https://") }
        let scheme = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = rest[authorityEnd...]
        let at = authority.lastIndex(of: "@")
        let host = at.map { authority[authority.index(after: $0)...] } ?? authority
        let userInfo = at.map { authority[..<$0] } ?? ""
        let shown = scheme + "://" + host + path
        guard scheme == "http" || scheme == "https" else { throw .badURL(shown, reason: "only http:// and https:// are spoken") }
        guard !host.isEmpty else { throw .badURL(shown, reason: "it names no host") }
        guard !path.contains("?") && !path.contains("#") else { throw .badURL(shown, reason: "a cache URL has no query or fragment") }
        while path.hasSuffix("/") { path = path.dropLast() }
        display = scheme + "://" + host + path
        base = scheme + "://" + (userInfo.isEmpty ? "" : userInfo + "@") + host + path
        if !userInfo.isEmpty {
            let password = userInfo.firstIndex(of: ":").map { userInfo[userInfo.index(after: $0)...] } ?? ""
            keepSecret(String(userInfo))
            keepSecret(String(password))
        }
    }

    /// Adds `secret` (and its percent-decoded form) to what is never shown.
    mutating func keepSecret(_ secret: String) {
        for form in [secret, secret.removingPercentEncoding ?? secret] where !form.isEmpty && !secrets.contains(form) {
            secrets.append(form)
        }
    }

    /// `words` with every secret replaced by `***`.
    func scrub(_ words: String) -> String {
        secrets.sorted { $0.count > $1.count }.reduce(words) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `text` with whatever stands between `://` and the last `@` before the path replaced by
    /// `***`: a URL that could not be taken apart, shown without what may be credentials.
    private static func hidingCredentials(_ text: String) -> String {
        let start = text.range(of: "//")?.upperBound ?? text.startIndex
        let end = text[start...].firstIndex { "/?#".contains($0) } ?? text.endIndex
        guard let at = text[start..<end].lastIndex(of: "@") else { return text }
        return text[..<start] + "***" + text[at...]
    }

    /// The headers of `value` (`Name: value` lines), the value of the environment variable
    /// `variable`; throws ``BazelCacheError/badHeader(variable:)`` naming the variable alone.
    static func headers(_ value: String, variable: String) throws(BazelCacheError) -> [String: String] {
        var headers: [String: String] = [:]
        for line in value.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let colon = line.firstIndex(of: ":") else { throw .badHeader(variable: variable) }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty,
                name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0)) })
            else { throw .badHeader(variable: variable) }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }
}
