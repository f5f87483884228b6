import Preload

extension Music: ExportableAsset {
    /// Writes the music as `NAME.wav`, decoded through its stream as a game plays it.
    public func export(as name: String, into folder: any ExportFolder) throws {
        try WAVHeader.export(named: name, format: format, samples: { AssetBytes(try decodeAll()) }, into: folder)
    }
}
