/// What a tool says about a loaded asset (``DescribedAsset``): the fields `preload --json` adds
/// to the asset's entry, the words `preload --verbose` prints after its name, and the shorter
/// words of a one-line notice such as `--watch`'s `reloaded NAME: WORDS`.
///
/// The entry's own fields (`path`, `name`, `kind`, `plugin`, `status`, `bytes`, `sha256`,
/// `seconds`, `error`, `errorCategory`, `warnings`, `timings`, `transfer`) are the command's:
/// name yours otherwise. A field of the description with one of those names is kept under the
/// asset's kind before its name (a palette's `name` is written `"palette.name"`), never lost.
///
/// ```swift
/// import Preload
///
/// let description = AssetDescription(
///     fields: ["colors": 16, "title": "dawn"],
///     summary: "palette 'dawn', \(AssetDescription.counted(16, "color"))",
///     brief: "16 colors")
/// print(description.summary ?? "")  // palette 'dawn', 16 colors
/// ```
public struct AssetDescription: Sendable, Hashable {
    /// The facts `--json` lists, by name (its keys).
    public var fields: DescriptionFields
    /// The words `--verbose` prints after the asset's name (`64x64 rgba8`), if any.
    public var summary: String?
    /// The shortest words that say what it is (`64x64`), for a one-line notice, if any.
    public var brief: String?

    /// A description of `fields`, `summary` and `brief`.
    public init(fields: DescriptionFields = [:], summary: String? = nil, brief: String? = nil) {
        self.fields = fields
        self.summary = summary
        self.brief = brief
    }

    /// `count` and `noun`, plural unless one: `1 page`, `3 pages`, `2 entries` (with `plural`).
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
