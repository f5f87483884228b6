import Preload

extension SpriteAnimation: ExportableAsset {
    /// Writes Aseprite's sheet export of the animation: the sheet `NAME.png` (or the exporter's
    /// texture format) and `NAME.json` in Aseprite's `json-hash` form naming it, which
    /// ``AsepriteSheetLoader`` loads back as the same animation (`AsepriteSheetWriter`). The
    /// sheet is the page when there is one, else the pages one below the other; pages that make
    /// no one sheet (GPU-ready pages of a pack baked with `--gpu`, more than one), or a frame not
    /// inside its page, are skipped, saying why.
    public func export(as name: String, into folder: any ExportFolder) throws {
        if let refusal = AsepriteSheetWriter.refusal(self) {
            folder.skip(name, because: refusal)
            return
        }
        guard let (sheet, top) = AsepriteSheetWriter.sheet(of: self) else { return }
        folder.write(sheet, named: name)
        let image = AssetPath.fileName(of: name) + "." + folder.textureFileExtension
        let json = try AsepriteSheetWriter.json(self, name: name, image: image, sheetWidth: sheet.width, sheetHeight: sheet.height, top: top)
        try folder.writeFile(named: name, extension: "json", counted: ExportLabel(noun: "animation", format: "Aseprite JSON")) {
            [AssetBytes(json)]
        }
    }
}
