import Preload

extension SpriteAnimation: DescribedAsset {
    /// Each frame's pixels, as pages.
    public var checksummedParts: [ChecksummedPart] { ChecksummedPart.pages(frames.map(\.texture)) }

    /// `width`, `height`, `frameCount`, `durationMilliseconds` (all frames), `loopCount` and
    /// `tags` (each's `name`, `from`, `to`, `direction`, `repeat`);
    /// `animation 32x32, 6 frames, 600 ms, 2 tags (idle, walk)`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let total = frames.reduce(0) { $0 + $1.durationMilliseconds }
        let tagFields: [DescriptionValue] = tags.map { tag in
            .object([
                "name": .string(tag.name), "from": .int(tag.from), "to": .int(tag.to), "direction": .string(tag.direction.rawValue),
                "repeat": .int(tag.repeatCount),
            ])
        }
        let names = tags.isEmpty ? "" : " (" + tags.map(\.name).joined(separator: ", ") + ")"
        return AssetDescription(
            fields: [
                "width": .int(width), "height": .int(height), "frameCount": .int(frames.count), "durationMilliseconds": .int(total),
                "loopCount": .int(loopCount), "tags": .array(tagFields),
            ],
            summary: "animation \(width)x\(height), \(AssetDescription.counted(frames.count, "frame")), \(total) ms, "
                + AssetDescription.counted(tags.count, "tag") + names)
    }
}
