import Preload

extension TextureAtlas: DescribedAsset {
    /// Each page's pixels, then each frame as its original image (``TextureAtlas/image(of:)``).
    public var checksummedParts: [ChecksummedPart] {
        ChecksummedPart.pages(pages.map(\.texture))
            + frames.enumerated().map { index, frame in ChecksummedPart(Self.frameName(index)) { try image(of: frame).pixels } }
    }

    /// `format`, `scale`, `pages` and `frames`, each frame normalized: `x, y, w, h` is the
    /// rectangle it occupies in its page (the rotated one when rotated), `offsetX, offsetY` place
    /// the trimmed content in the original (`sourceW x sourceH`), top-left origin, `rotation` in
    /// ``AtlasFrame/Rotation``'s words (`rotated` kept for readers of older documents);
    /// `texturepacker-hash atlas, 1 page, 2 frames`; briefly `1 page, 2 frames`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let frameEntries = frames.enumerated().map { index, frame in
            var fields: DescriptionFields = [
                "name": .string(frame.name), "page": .int(frame.page), "x": .int(frame.rect.x), "y": .int(frame.rect.y),
                "w": .int(frame.rect.width), "h": .int(frame.rect.height), "rotation": .string(frame.rotation.rawValue),
                "rotated": .bool(frame.isRotated), "offsetX": .int(frame.offsetX), "offsetY": .int(frame.offsetY),
                "sourceW": .int(frame.sourceWidth), "sourceH": .int(frame.sourceHeight),
            ]
            fields["index"] = frame.index.map(DescriptionValue.int)
            fields["sha256"] = checksums.map { .string($0[Self.frameName(index)] ?? "") }
            return DescriptionValue.object(fields)
        }
        let counts = "\(AssetDescription.counted(pages.count, "page")), \(AssetDescription.counted(frames.count, "frame"))"
        return AssetDescription(
            fields: [
                "format": .string(format.rawValue), "scale": .double(scale),
                "pages": .pages(pages.map { ($0.path, $0.texture) }, checksums: checksums), "frames": .array(frameEntries),
            ],
            summary: "\(format.rawValue) atlas, \(counts)", brief: counts)
    }

    /// The name of frame `index`'s part: `frame INDEX`.
    private static func frameName(_ index: Int) -> String { "frame \(index)" }
}
