import Preload

extension SpriteAnimation: DescribedAsset {
    /// Each page's pixels.
    public var checksummedParts: [ChecksummedPart] { ChecksummedPart.pages(pages) }

    /// `width`, `height`, `frameCount`, `durationMilliseconds` (all frames), `loopCount`,
    /// `tags` (each's `name`, `from`, `to`, `direction`, `repeat`), `slices` (each's `name`
    /// and `keys`: `frame`, `x`, `y`, `w`, `h`, and `center` and `pivot` when it has them), a
    /// tag's or slice's user data as `color` (`#rrggbbaa`) and `data` (its text) when it has
    /// them, and `pages`; `animation 32x32, 6 frames, 600 ms, loops, 2 tags (idle, walk), 1 slice (hitbox)`
    /// (or `plays once`, `plays 5 times`: ``loopCount``).
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let total = frames.reduce(0) { $0 + $1.durationMilliseconds }
        let tagFields: [DescriptionValue] = tags.map { tag in
            Self.withUserData(
                [
                    "name": .string(tag.name), "from": .int(tag.from), "to": .int(tag.to), "direction": .string(tag.direction.rawValue),
                    "repeat": .int(tag.repeatCount),
                ], tag.userData)
        }
        let names = tags.isEmpty ? "" : " (" + tags.map(\.name).joined(separator: ", ") + ")"
        let plays = loopCount == 0 ? "loops" : loopCount == 1 ? "plays once" : "plays \(loopCount) times"
        let sliceNames =
            slices.isEmpty ? "" : ", \(AssetDescription.counted(slices.count, "slice")) (" + slices.map(\.name).joined(separator: ", ") + ")"
        return AssetDescription(
            fields: [
                "width": .int(width), "height": .int(height), "frameCount": .int(frames.count), "durationMilliseconds": .int(total),
                "loopCount": .int(loopCount), "tags": .array(tagFields), "slices": .array(slices.map(Self.fields)),
                "pages": .pages(pages.enumerated().map { ("page \($0.offset)", $0.element) }, checksums: checksums),
            ],
            summary: "animation \(width)x\(height), \(AssetDescription.counted(frames.count, "frame")), \(total) ms, \(plays), "
                + AssetDescription.counted(tags.count, "tag") + names + sliceNames)
    }

    /// `fields` (a tag's or a slice's) with `userData`'s `color` (`#rrggbbaa`) and `data` (its
    /// text), each when given, as Aseprite's sheet export writes them.
    private static func withUserData(_ fields: DescriptionFields, _ userData: AnimationUserData) -> DescriptionValue {
        var fields = fields
        if let color = userData.color { fields["color"] = .string(color.description) }
        if let text = userData.text { fields["data"] = .string(text) }
        return .object(fields)
    }

    /// A slice's `name`, `keys`, and its user data's `color` and `data`.
    private static func fields(of slice: AnimationSlice) -> DescriptionValue {
        withUserData(
            [
                "name": .string(slice.name),
                "keys": .array(
                    slice.keys.map { key in
                        var fields: DescriptionFields = [
                            "frame": .int(key.frame), "x": .int(key.bounds.x), "y": .int(key.bounds.y), "w": .int(key.bounds.width),
                            "h": .int(key.bounds.height),
                        ]
                        if let center = key.center {
                            fields["center"] = .object(["x": .int(center.x), "y": .int(center.y), "w": .int(center.width), "h": .int(center.height)])
                        }
                        if let pivot = key.pivot { fields["pivot"] = .object(["x": .int(pivot.x), "y": .int(pivot.y)]) }
                        return .object(fields)
                    }),
            ], slice.userData)
    }
}
