import Preload

extension Music: DescribedAsset {
    /// The PCM its stream gives, decoded when the digest is computed.
    public var checksummedParts: [ChecksummedPart] { [ChecksummedPart { AssetBytes(try decodeAll()) }] }

    /// `duration`, `sampleRate`, `channels`, `frameCount`, `sampleFormat` and `encoding`;
    /// `music, 12.00 s, 44100 Hz, stereo, int16, ogg`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        AssetDescription(
            fields: AudioDescription.fields(duration: duration, format: format, frameCount: frameCount, encoding: encoding),
            summary: AudioDescription.summary("music", duration: duration, format: format, encoding: encoding))
    }
}
