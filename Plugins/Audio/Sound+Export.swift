import Preload

extension Sound: ExportableAsset {
    /// Writes the sound as `NAME.wav`, in the sample type it loaded with.
    public func export(as name: String, into folder: any ExportFolder) throws {
        try WAVHeader.export(named: name, format: format, samples: { samples }, into: folder)
    }
}
