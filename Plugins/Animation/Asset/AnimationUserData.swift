/// What an artist attached to a sprite, a tag or a slice in Aseprite's "User Data" (its
/// properties dialog): a text, a colour, and Aseprite's custom properties.
public struct AnimationUserData: Hashable, Sendable {
    /// An RGBA colour, straight alpha, 0 to 255 a channel.
    public struct Color: Hashable, Sendable, CustomStringConvertible {
        /// Red.
        public var red: UInt8
        /// Green.
        public var green: UInt8
        /// Blue.
        public var blue: UInt8
        /// Alpha: 255 opaque.
        public var alpha: UInt8

        /// A colour of these four channels.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        /// `#rrggbbaa`, as Aseprite's sheet export writes it.
        public var description: String {
            "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }

        /// The colour `#rrggbbaa` (or `#rrggbb`, opaque) names, or `nil` when `text` is neither.
        init?(hex text: String) {
            guard text.hasPrefix("#"), let channels = Self.hexBytes(text.dropFirst()), channels.count == 3 || channels.count == 4 else { return nil }
            self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
        }

        /// The bytes of `text`'s pairs of hex digits, or `nil` when it is not such pairs.
        static func hexBytes(_ text: Substring) -> [UInt8]? {
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
            let bytes = stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
            return bytes.count * 2 == digits.count ? bytes : nil
        }
    }

    /// The text, if one was given.
    public var text: String?
    /// The colour, if one was given (Aseprite draws a tag or slice in it).
    public var color: Color?
    /// Aseprite's custom properties, by the extension that set them: the user's own under
    /// `""`, an extension's under its identifier. Empty when the file has none.
    public var properties: [String: [String: AnimationProperty]]

    /// User data with this text, colour and properties (none by default).
    public init(text: String? = nil, color: Color? = nil, properties: [String: [String: AnimationProperty]] = [:]) {
        self.text = text
        self.color = color
        self.properties = properties
    }

    /// Whether nothing was given.
    public var isEmpty: Bool { text == nil && color == nil && properties.isEmpty }
}
