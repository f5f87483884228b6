/// A colour as Tiled writes it: `#RRGGBB` (opaque) or `#AARRGGBB`, alpha first.
public struct TiledColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Red, 0 to 255.
    public var red: UInt8
    /// Green, 0 to 255.
    public var green: UInt8
    /// Blue, 0 to 255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) to 255 (opaque).
    public var alpha: UInt8

    /// A colour of these components (opaque unless `alpha` says otherwise).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The colour `text` spells, as Tiled reads it: `#RRGGBB`, `#AARRGGBB` or `#RGB`, the `#`
    /// optional; `nil` for anything else (an empty string is Tiled's "no colour").
    public init?(parsing text: String) {
        var digits = Substring(text.trimmingWhiteSpace)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        func byte(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        switch digits.count {
        case 3:
            func doubled(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (value >> shift) & 0xF) &* 17 }
            self.init(red: doubled(8), green: doubled(4), blue: doubled(0))
        case 6: self.init(red: byte(16), green: byte(8), blue: byte(0))
        case 8: self.init(red: byte(16), green: byte(8), blue: byte(0), alpha: byte(24))
        default: return nil
        }
    }

    /// `#RRGGBB` for an opaque colour, `#AARRGGBB` otherwise (as Tiled writes it).
    public var description: String {
        func hex(_ byte: UInt8) -> String { byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        return "#" + (alpha == 255 ? "" : hex(alpha)) + hex(red) + hex(green) + hex(blue)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (what XML attributes and CSV
    /// cells may carry).
    var trimmingWhiteSpace: SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
