/// What folder requests stand for, as a batch with these plugins plans them: for a tool that
/// needs the list of files (a bake, a check) without loading them.
extension PluginRegistry {
    /// `requests` with each folder request (``AssetRequest/folder(_:name:options:)``) replaced by
    /// requests for the files below it that a plugin claims, named as the folder request names
    /// them, and each file a plugin expands (a baked pack, ``ExpandingPlugin``) replaced by what it
    /// stands for. Files nobody claims, and folders that cannot be listed, are left out (a batch
    /// reports them).
    public func expandingFolders(_ requests: [AssetRequest]) -> [AssetRequest] {
        Array(FolderDiscovery(registry: self).expand(requests).requests)
    }

    /// Requests for the asset folders (sprite folders `*.atlas`, compiled atlases `*.atlasc`)
    /// inside the containers `requests` name with a container plugin (a pack loads their files
    /// one by one; such a folder is an atlas of its own), named after the container's request,
    /// in order. A batch makes them for the packs a folder walk finds.
    public func assetFolders(inContainers requests: [AssetRequest]) -> [AssetRequest] {
        var seen = Set<String>()
        return FolderDiscovery(registry: self).assetFoldersInContainers(of: requests, seen: &seen)
    }
}
