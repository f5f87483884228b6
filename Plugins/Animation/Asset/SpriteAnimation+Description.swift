import Preload

extension SpriteAnimation: DescribedAsset {
    /// Each page's pixels.
    public var checksummedParts: [ChecksummedPart] { ChecksummedPart.pages(pages) }

    /// `width`, `height`, `frameCount`, `durationMilliseconds` (all frames), `loopCount`,
    /// `tags` (each's `name`, `from`, `to`, `direction`, `repeat`) and `pages`;
    /// `animation 32x32, 6 frames, 600 ms, loops, 2 tags (idle, walk)` (or `plays once`,
    /// `plays 5 times`: ``loopCount``).
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let total = frames.reduce(0) { $0 + $1.durationMilliseconds }
        let tagFields: [DescriptionValue] = tags.map { tag in
            .object([
                "name": .string(tag.name), "from": .int(tag.from), "to": .int(tag.to), "direction": .string(tag.direction.rawValue),
                "repeat": .int(tag.repeatCount),
            ])
        }
        let names = tags.isEmpty ? "" : " (" + tags.map(\.name).joined(separator: ", ") + ")"
        let plays = loopCount == 0 ? "loops" : loopCount == 1 ? "plays once" : "plays \(loopCount) times"
        return AssetDescription(
            fields: [
                "width": .int(width), "height": .int(height), "frameCount": .int(frames.count), "durationMilliseconds": .int(total),
                "loopCount": .int(loopCount), "tags": .array(tagFields),
                "pages": .pages(pages.enumerated().map { ("page \($0.offset)", $0.element) }, checksums: checksums),
            ],
            summary: "animation \(width)x\(height), \(AssetDescription.counted(frames.count, "frame")), \(total) ms, \(plays), "
                + AssetDescription.counted(tags.count, "tag") + names)
    }
}
