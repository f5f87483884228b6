/// The characters a TrueType font is rasterized for: code point ranges, from a string, ranges, or
/// both (``union(_:)``). Each character is rendered once, in code point order.
///
/// ```swift
/// import PreloadTrueType
///
/// let score = TrueTypeCharacters("0123456789 Score:")
/// let latin = TrueTypeCharacters.latin1.union(TrueTypeCharacters(ranges: ["\u{20AC}"..."\u{20AC}"]))  // and €
/// print(score.count, latin.count)
/// ```
public struct TrueTypeCharacters: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The code point ranges, sorted, without overlaps or neighbours (`A-C` and `D-F` are `A-F`).
    public private(set) var ranges: [ClosedRange<UInt32>]

    /// The characters of `text` (each Unicode scalar once, whatever its order or repetition).
    public init(_ text: String) {
        self.init(codePoints: text.unicodeScalars.map { $0.value...$0.value })
    }

    /// The characters of `text`, written as a literal.
    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// The characters of `ranges` (in any order; they may overlap).
    public init(ranges: [ClosedRange<Unicode.Scalar>]) {
        self.init(codePoints: ranges.map { $0.lowerBound.value...$0.upperBound.value })
    }

    private init(codePoints: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in codePoints.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
    }

    /// The printable ASCII characters, space to `~` (32 to 126): the default.
    public static let printableASCII = TrueTypeCharacters(ranges: [" "..."~"])
    /// Printable ASCII and the printable Latin-1 supplement (160 to 255).
    public static let latin1 = TrueTypeCharacters(ranges: [" "..."~", "\u{A0}"..."\u{FF}"])

    /// These characters and those of `other`.
    public func union(_ other: TrueTypeCharacters) -> TrueTypeCharacters {
        TrueTypeCharacters(codePoints: ranges + other.ranges)
    }

    /// How many characters (the ranges' code points, surrogates aside: no character has one).
    public var count: Int {
        ranges.reduce(0) { total, range in
            let surrogates = max(0, Int(min(range.upperBound, 0xDFFF)) - Int(max(range.lowerBound, 0xD800)) + 1)
            return total + range.count - surrogates
        }
    }

    /// Whether `character` is one of them.
    public func contains(_ character: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(character.value) }
    }

    /// Every character, in code point order.
    public var scalars: [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(count)
        for range in ranges {
            for value in range { if let scalar = Unicode.Scalar(value) { scalars.append(scalar) } }
        }
        return scalars
    }
}
