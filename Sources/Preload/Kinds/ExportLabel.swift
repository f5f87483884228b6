/// What an exported file counts as in an exporter's report: `Exported 12 textures and 3 sounds
/// (WAV)` counts the files labelled `ExportLabel(noun: "sound", format: "WAV")`.
public struct ExportLabel: Sendable, Hashable {
    /// The noun for one file (`sound`).
    public var noun: String
    /// The noun for several (`sounds`).
    public var plural: String
    /// The files' format, as a person names it (`WAV`).
    public var format: String

    /// A label counting files as `noun` (plural `plural`, or `noun` with an `s`) in `format`.
    public init(noun: String, plural: String? = nil, format: String) {
        self.noun = noun
        self.plural = plural ?? noun + "s"
        self.format = format
    }
}
