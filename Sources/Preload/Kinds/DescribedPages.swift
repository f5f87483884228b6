extension DescriptionValue {
    /// The images an asset is drawn from (an atlas's or a font's pages, a map's tileset
    /// images), as `preload --json` lists them under `pages`: each one's `path`, `width`,
    /// `height`, and with checksums the `sha256` of its pixels (the part ``ChecksummedPart/page(_:_:)``
    /// named; empty when its bytes could not be read).
    public static func pages(_ pages: [(path: String, texture: Texture)], checksums: AssetChecksums?) -> DescriptionValue {
        .array(
            pages.enumerated().map { index, page in
                var fields: DescriptionFields = ["path": .string(page.path), "width": .int(page.texture.width), "height": .int(page.texture.height)]
                fields["sha256"] = checksums.map { .string($0[ChecksummedPart.pageName(index)] ?? "") }
                return .object(fields)
            })
    }
}

extension ChecksummedPart {
    /// The pixels of page `index` (its texture), which ``DescriptionValue/pages(_:checksums:)``
    /// places.
    public static func page(_ index: Int, _ texture: Texture) -> ChecksummedPart {
        ChecksummedPart(pageName(index)) { texture.pixels }
    }

    /// The parts of `textures`, one page each, in order.
    public static func pages(_ textures: [Texture]) -> [ChecksummedPart] {
        textures.enumerated().map { page($0, $1) }
    }

    /// The name of page `index`'s part: `page INDEX`.
    static func pageName(_ index: Int) -> String { "page \(index)" }
}
