import Preload

extension Sound: DescribedAsset {
    /// The PCM, every frame.
    public var checksummedParts: [ChecksummedPart] {
        let samples = samples
        return [ChecksummedPart { samples }]
    }

    /// `duration`, `sampleRate`, `channels`, `frameCount`, `sampleFormat`, `encoding`, and an
    /// audio sprite's `ranges` (each `start` and `end` frame and whether it `loops`);
    /// `sound, 0.20 s, 22050 Hz, mono, int16, wav`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        var fields = AudioDescription.fields(duration: duration, format: format, frameCount: frameCount, encoding: encoding)
        if !ranges.isEmpty {
            var named = DescriptionFields()
            for (name, range) in ranges.sorted(by: { $0.key < $1.key }) {
                named[name] = .object(["start": .int(range.frames.lowerBound), "end": .int(range.frames.upperBound), "loops": .bool(range.loops)])
            }
            fields["ranges"] = .object(named)
        }
        return AssetDescription(fields: fields, summary: AudioDescription.summary("sound", duration: duration, format: format, encoding: encoding))
    }
}
