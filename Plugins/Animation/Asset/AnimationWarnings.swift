import Preload

/// The warnings of the animation plugins (Aseprite files and exports, APNG, GIF, animated WebP):
/// one file for the plugin folder, as each plugin has one.
extension AssetWarning.Code {
    /// The file holds data this loader does not read or an animation does not keep: a layer's
    /// or cel's user data (named: an animation has no layers), old slice chunks (counted), user data
    /// properties of an unknown type, a user data chunk after every tag had its own, an
    /// export's slice `properties`. The rest of the file loads.
    public static let asepriteUnreadData: AssetWarning.Code = "aseprite.unread-data"
    /// A group layer has its own opacity or blend mode, and the file says Aseprite's editor
    /// composes groups (header flag 2, its experimental option): the editor shows the group
    /// composited on its own and then blended, but Aseprite's export, and this loader, draw the
    /// group's layers straight onto the frame without the group's opacity and mode.
    public static let asepriteGroupBlending: AssetWarning.Code = "aseprite.group-blending"
    /// The header's file size or the bytes after the last frame disagree with the frames read.
    public static let asepriteFileSize: AssetWarning.Code = "aseprite.file-size"
    /// An Aseprite export's `meta.image` names a sheet that is not there (Aseprite writes the
    /// path it exported to, often absolute on the artist's machine): the file of that name, or
    /// of the JSON's name with `.png`, beside the JSON loaded instead.
    public static let asepriteSheetPath: AssetWarning.Code = "aseprite.sheet-path"
    /// An APNG loaded as an animation has no animation: no `acTL` before its image data, or an
    /// invalid one (a frame count of 0 or past 2^31 - 1, a second `acTL`, one after `IDAT`). Its
    /// default image, what browsers and Pillow show, loaded as the one frame; its `fcTL` and
    /// `fdAT` chunks, if any, were not read.
    public static let apngNotAnimated: AssetWarning.Code = "apng.not-animated"
    /// An APNG holds more frames than its `acTL` promises: the promised frames loaded (as
    /// Pillow plays it), the rest were checked and left out.
    public static let apngFrameCount: AssetWarning.Code = "apng.frame-count"

    // The GIF loader's (one warnings file for the plugin).

    /// A frame reaches past the logical screen (or lies wholly outside it): the part outside is
    /// not drawn, as browsers clip it.
    public static let gifFrameOutsideScreen: AssetWarning.Code = "gif.frame-outside-screen"
    /// A frame's disposal method is 4 to 7, which the specification leaves undefined: 4 is read as
    /// 3 (restore previous), as browsers read it; 5 to 7 as 1 (leave in place).
    public static let gifDisposal: AssetWarning.Code = "gif.disposal"
    /// A frame has no colour table (neither a local one nor the global one): its indexes show as
    /// grays (index n as n, n, n), as Pillow shows them.
    public static let gifNoColorTable: AssetWarning.Code = "gif.no-color-table"
    /// A frame uses colour indexes past its colour table's size: they show as opaque black, as
    /// browsers show them.
    public static let gifIndexPastTable: AssetWarning.Code = "gif.index-past-table"
    /// The file ends after a whole frame without its trailer (`;`), or an unknown record follows
    /// the last frame: the frames before load, as browsers and Pillow load them.
    public static let gifTrailer: AssetWarning.Code = "gif.trailer"
    /// A Graphic Control Extension is not 4 bytes long: it is passed over (the next frame keeps
    /// the defaults: no transparency, no disposal, 100 ms).
    public static let gifGraphicControl: AssetWarning.Code = "gif.graphic-control"
}
