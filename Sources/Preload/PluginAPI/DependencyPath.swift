extension PlannedRequest {
    /// A file this request's file names (an atlas's page, a font's page, a map's tileset),
    /// resolved as every plugin resolves such names: relative to this file's folder (an absolute
    /// name stays as it is), and for a file inside a container (`game.zip#ui/font.fnt`), inside
    /// that container (`../x.png` from `ui/` is the container's `x.png`, where normalizing the
    /// whole path would climb out of it).
    ///
    /// - Returns: the path to request, or `nil` when the name reaches outside the container
    ///   (an absolute name, or `..` past its root), which the plugin reports as its own error,
    ///   naming the file.
    public func resolvedPath(of name: String) -> String? {
        AssetPath.resolve(name, relativeTo: path, inside: containerPrefix)
    }
}
