/// Something irregular about a file that loaded anyway, because the major runtimes (browsers,
/// Pillow, libGDX, PixiJS) accept it too: a PNG without its IEND chunk, an atlas saved with
/// Windows line ends, a region named twice.
///
/// A plugin records one with ``LoadContext/warn(_:)-(AssetWarning)``; it reaches the caller on the asset's
/// ``AssetResult/warnings``. Under ``PreloadOptions/isStrict`` every warning fails its asset
/// instead (an ``AssetError`` of category ``AssetError/Category/strict``), so an asset pipeline's
/// CI can keep its files clean while the game itself stays forgiving.
///
/// Damaged data is never a warning: a bad CRC on critical data, a chunk cut short or a broken
/// compressed stream always fails.
public struct AssetWarning: Hashable, Sendable, CustomStringConvertible {
    /// What kind of irregularity it is: a short, stable identifier for code and `--json`
    /// (`"png.no-iend"`). Plugins define their own as static members.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        public var rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        public var description: String { rawValue }
    }

    /// What kind of irregularity it is, stable across releases, for filtering.
    public let code: Code
    /// What is irregular and what was done about it, in words ("no IEND chunk; the image data is
    /// complete").
    public let message: String

    /// A warning with `code` and a `message` naming the file and what was forgiven.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension AssetWarning {
    /// The warnings a codec library collected during one decode, of which it keeps the first
    /// `kept`: the warning `warning` makes of each kept one (by its index), then, when `count` is
    /// more, one of `code` that counts the rest ("3 more libpng warnings", `library` "libpng").
    public static func collected(
        count: Int, kept: Int, library: String, rest code: Code, _ warning: (Int) -> AssetWarning
    ) -> [AssetWarning] {
        let warnings = (0..<max(0, min(count, kept))).map(warning)
        return count > kept ? warnings + [AssetWarning(code, "\(count - kept) more \(library) warnings")] : warnings
    }
}

extension AssetWarning.Code {
    /// A file whose extension names one format and whose content is another's (a JPEG saved as
    /// `.png`): loaded by the plugin its content matches.
    public static let contentNotExtension: Self = "content-not-extension"
}

extension AssetError {
    /// The failure strict mode makes of `warning` for the file at `path`.
    package static func strict(path: String, warning: AssetWarning) -> AssetError {
        AssetError(path: path, category: .strict, reason: "strict: \(warning.message)", underlying: StrictWarning(warning: warning))
    }
}

/// The ``AssetError/underlying`` error of a warning that strict mode turned into a failure.
public struct StrictWarning: Error, Sendable, CustomStringConvertible {
    /// The warning that strict mode turned into a failure.
    public let warning: AssetWarning
    public var description: String { "strict: \(warning.message)" }
}
