import Preload

/// Where the files a map names are: resolved against the file that names them (the map, or an
/// external tileset), and, for a map inside an archive, inside that archive.
enum TileMapPaths {
    /// `name` resolved against the folder of `referrer`. Inside an archive (`containerPrefix`,
    /// `game.zip#`) the name is resolved against the referrer's folder inside it (`ui/../x.png`
    /// is the archive's `x.png`, where lexical normalization of the whole path would climb out
    /// of it); `nil` for a name that reaches outside the archive (`../x.png` at its top, `/x.png`).
    static func resolve(_ name: String, relativeTo referrer: String, containerPrefix: String?) -> String? {
        guard let prefix = containerPrefix, referrer.hasPrefix(prefix) else { return AssetPath.resolve(name, relativeTo: referrer) }
        guard !name.hasPrefix("/") else { return nil }
        let inside = AssetPath.normalized(AssetPath.resolve(name, relativeTo: String(referrer.dropFirst(prefix.count))))
        guard !inside.isEmpty, !inside.hasPrefix("/"), inside != "..", !inside.hasPrefix("../") else { return nil }
        return prefix + inside
    }
}
