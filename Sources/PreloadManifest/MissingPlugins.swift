import Preload

extension AssetManifest {
    /// The manifest as a coordinator with `registry` loads it: each Phaser pack entry naming a
    /// plugin `registry` lacks (a sound without PreloadAudio's `AudioLoader`) leaves its group
    /// and becomes a notice, as an entry of a type no plugin loads does, instead of failing the
    /// group. Preload's own dialect is unchanged: an entry that names a plugin means it.
    func skippingEntries(withoutPluginsIn registry: PluginRegistry) -> AssetManifest {
        guard dialect == .phaserPack else { return self }
        var added: [ManifestNotice] = []
        let kept = groups.map { group in
            let entries = group.entries.filter { entry in
                guard let type = entry.phaserType, let plugin = entry.request.plugin, registry.plugin(identifier: plugin) == nil else { return true }
                added.append(
                    ManifestNotice(
                        .pluginNotRegistered, manifest: path, group: group.name, entry: entry.place, type: type,
                        "skipped: no '\(plugin)' plugin is registered with the coordinator"
                            + (Self.loaders[plugin].map { " (register \($0) to load it)" } ?? "")))
                return false
            }
            return Group(name: group.name, requires: group.requires, entries: entries)
        }
        guard !added.isEmpty else { return self }
        return AssetManifest(path: path, dialect: dialect, groups: kept, notices: notices + added)
    }

    /// The loaders of the plugins a Phaser pack's entries name, by identifier, for the notice.
    private static let loaders = [
        "atlas": "PreloadAtlas's AtlasLoader", "json": "PreloadPack's DataFileLoader.json", "data": "PreloadPack's DataFileLoader.raw",
        "audio": "PreloadAudio's AudioLoader", "bmfont": "PreloadFont's BitmapFontLoader", "tilemap": "PreloadTileMap's TileMapLoader",
        "aseprite-sheet": "PreloadAnimation's AsepriteSheetLoader",
    ]
}
