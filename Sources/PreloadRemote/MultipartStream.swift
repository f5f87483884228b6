import Foundation

/// A `multipart/byteranges` body (RFC 9110 §14.6) read as it arrives: each part's headers are
/// gathered (at most ``maxHeaderBytes``), its `Content-Range` read, and its bytes handed on at
/// their offsets in the file as they come, never held: a part of a gigabyte costs no memory.
struct MultipartStream {
    /// The most bytes a part's delimiter and headers may take.
    static let maxHeaderBytes = 16 << 10

    private let delimiter: [UInt8]
    private let length: UInt64?
    private var pending: [UInt8] = []
    private var part: (next: UInt64, end: UInt64)?
    /// Whether the closing delimiter came.
    private(set) var closed = false

    /// The stream of an answer whose `Content-Type` is `contentType`, for a file of `length`
    /// bytes (when known: a part past it is refused); `nil` when the type names no boundary.
    init?(contentType: String, length: UInt64?) {
        guard contentType.lowercased().hasPrefix("multipart/byteranges"), let at = contentType.range(of: "boundary=") else { return nil }
        var boundary = contentType[at.upperBound...]
        if let end = boundary.firstIndex(of: ";") { boundary = boundary[..<end] }
        delimiter = Array(("--" + boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))).utf8)
        self.length = length
    }

    /// Reads `bytes`, the next piece of the body: `write` gets each run of a part's bytes and
    /// where it lies in the file (and returns whether it could keep it). Throws `.mismatch` for
    /// a body that is not a well-formed `multipart/byteranges`.
    mutating func consume(
        _ bytes: UnsafeRawBufferPointer, write: (UnsafeRawBufferPointer, UInt64) -> Bool
    ) throws(RemoteFetchError) -> Bool {
        var cursor = 0
        while cursor < bytes.count && !closed {
            if let (next, end) = part {
                let count = Int(min(UInt64(bytes.count - cursor), end - next))
                guard write(UnsafeRawBufferPointer(rebasing: bytes[cursor..<cursor + count]), next) else { return false }
                cursor += count
                part = next + UInt64(count) == end ? nil : (next + UInt64(count), end)
                continue
            }
            // A delimiter and a part's headers: gathered until the blank line that ends them.
            let take = min(bytes.count - cursor, Self.maxHeaderBytes + 4 - pending.count)
            let before = pending.count
            pending.append(contentsOf: bytes[cursor..<cursor + take])
            guard let at = Self.find(delimiter, in: pending) else {
                guard pending.count < Self.maxHeaderBytes else { throw .mismatch("a multipart answer without its boundary") }
                cursor += take
                continue
            }
            let afterDelimiter = at + delimiter.count
            if pending.count >= afterDelimiter + 2 && pending[afterDelimiter] == UInt8(ascii: "-") && pending[afterDelimiter + 1] == UInt8(ascii: "-")
            {
                closed = true
                return true
            }
            guard let blank = Self.find(Array("\r\n\r\n".utf8), in: pending, from: afterDelimiter) else {
                guard pending.count < Self.maxHeaderBytes else { throw .mismatch("a part's headers do not end") }
                cursor += take
                continue
            }
            let text = String(decoding: pending[afterDelimiter..<blank], as: UTF8.self)
            var range: Range<UInt64>?
            for line in text.split(separator: "\r\n") where line.lowercased().hasPrefix("content-range:") {
                range = RangeAnswer.contentRange(line.dropFirst("content-range:".count).trimmingCharacters(in: .whitespaces))
            }
            guard let range else { throw .mismatch("a part without a Content-Range") }
            if let length, range.upperBound > length { throw .mismatch("a part past the file's \(length) bytes") }
            cursor += blank + 4 - before  // the rest of what was gathered is the part's bytes: read again from `bytes`
            pending = []
            part = (range.lowerBound, range.upperBound)
        }
        return true
    }

    /// Where `needle` first occurs in `haystack` from `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
