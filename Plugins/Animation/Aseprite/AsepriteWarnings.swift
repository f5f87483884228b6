import Preload

extension AssetWarning.Code {
    /// The file holds data this loader does not read or an animation does not keep: tilesets
    /// (counted), a layer's or cel's user data (named: an animation has no layers), user data
    /// properties of an unknown type, a user data chunk after every tag had its own, an
    /// export's slice `properties`. The rest of the file loads.
    public static let asepriteUnreadData: AssetWarning.Code = "aseprite.unread-data"
    /// A group layer's own opacity or blend mode is set to apply (header flag 2), and this loader
    /// composites a group's layers straight onto the frame: the group's opacity and mode are
    /// not applied.
    public static let asepriteGroupBlending: AssetWarning.Code = "aseprite.group-blending"
    /// The header's file size or the bytes after the last frame disagree with the frames read.
    public static let asepriteFileSize: AssetWarning.Code = "aseprite.file-size"
    /// An Aseprite export's `meta.image` names a sheet that is not there (Aseprite writes the
    /// path it exported to, often absolute on the artist's machine): the file of that name, or
    /// of the JSON's name with `.png`, beside the JSON loaded instead.
    public static let asepriteSheetPath: AssetWarning.Code = "aseprite.sheet-path"
}
