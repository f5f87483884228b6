import Preload

extension TextureAtlas: ExportableAsset {
    /// Writes each page as `NAME#N.png` (N from 1, as a baked pack names a page the atlas packed
    /// at load time), unless the batch exports it already: a page loaded from its own file is
    /// exported under that file's store name.
    public func export(as name: String, into folder: any ExportFolder) throws {
        for (number, page) in pages.enumerated() {
            folder.write(page.texture, named: "\(name)#\(number + 1)", partOf: page.path)
        }
    }
}
