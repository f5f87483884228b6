extension Texture: ExportableAsset {
    /// Writes the texture at `NAME.png` (or as the exporter's format says).
    public func export(as name: String, into folder: any ExportFolder) throws {
        folder.write(self, named: name)
    }
}
