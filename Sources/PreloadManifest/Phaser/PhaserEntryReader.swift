import Foundation
import Preload

/// Turns the entries of a Phaser pack's sections into groups of requests, by file type:
///
/// | type | loads as | plugin |
/// |---|---|---|
/// | `image` | `url` (a second `url` or `normalMap`: the normal map, named by its path) | claimed (PNG) |
/// | `atlas` | `atlasURL`, its one page from `textureURL` | `atlas` |
/// | `aseprite` | `atlasURL`, an Aseprite export with its sheet from `textureURL` (the aseprite-sheet settings' `sheet`) | `aseprite-sheet` |
/// | `multiatlas` | `url`, its pages inside the entry's (else the section's) `baseURL` + `path` | `atlas` |
/// | `spritesheet` | `url` cut by `frameConfig` into a grid (the atlas settings' `grid`) | `atlas` |
/// | `json` | `url`, checked to parse | `json` |
/// | `binary` | `url`, as bytes | `data` |
/// | `audio` | the first of `url`'s URLs whose file exists and this machine decodes (see `playable`), by duration a sound or music | `audio` |
/// | `audioSprite` | the first such URL of `audioURL`, a sound with the markers of `jsonURL` (the audio settings' `spriteMap`) | `audio` |
/// | `bitmapFont` | `fontDataURL` (BMFont XML, or any BMFont form), its one page from `textureURL` (the bmfont settings' `pages`) | `bmfont` |
/// | `tilemapTiledJSON` | `url`, a Tiled map (its tilesets' images load with it) | `tilemap` |
/// | `tilemapCSV` | `url`, a grid of tile indexes, as a one-layer map of 32x32 tiles (the tilemap settings' `tileWidth`) | `tilemap` |
///
/// What a type needs beyond its file (pages, a grid, a sprite map) is given as the plugin's
/// settings, read by the plugin's own `PluginSettingsReader` as a Preload manifest's
/// `"options"` are: this reader names plugins by identifier and knows none of their types.
/// Any other type is skipped with a notice. Store names are the keys, after the section's
/// `prefix`; a missing URL is `path + key + "." + extension` as in Phaser.
struct PhaserEntryReader {
    /// A section's settings, applying to its files.
    struct Section {
        let name: String
        let urls: PhaserURLs
        let prefix: String
        let defaultType: String?
    }

    let manifest: String
    let plugins: ManifestPlugins
    private(set) var groups: [AssetManifest.Group] = []
    private(set) var notices: [ManifestNotice] = []
    /// Store names taken, with where: a key given again keeps the first.
    private var claimed: [String: String] = [:]

    init(manifest: String, plugins: ManifestPlugins) {
        self.manifest = manifest
        self.plugins = plugins
    }

    mutating func read(_ files: [Any], in section: Section) throws {
        var entries: [AssetManifest.Entry] = []
        for (index, value) in files.enumerated() {
            guard let file = value as? [String: Any] else { throw problem("is not an object", section, "entry \(index + 1)") }
            guard let type = file["type"] as? String ?? section.defaultType else {
                notices.append(
                    notice(.unsupportedType, section, "entry \(index + 1)", "(none)", "skipped: no 'type', and the section has no 'defaultType'"))
                continue
            }
            guard let key = file["key"] as? String, !key.isEmpty else { throw problem("'key' is missing or empty", section, "entry \(index + 1)") }
            let name = section.prefix + key
            let place = "entry \(index + 1) ('\(name)')"
            guard let made = try requests(type: type, file: file, key: key, name: name, section: section, place: place) else {
                let reason =
                    type == "audioSprite"
                    ? "skipped: an audioSprite without 'audioURL' (the URLs in its JSON's 'resources' are not read)"
                    : "skipped: no Preload plugin loads '\(type)' files"
                notices.append(notice(.unsupportedType, section, place, type, reason))
                continue
            }
            switch made {
            case .elsewhere(let url):
                notices.append(notice(.notOnDisk, section, place, type, "not loaded: \(url) is neither a file on disk nor an http or https URL"))
            case .entries(let made, let missing):
                if !missing.isEmpty {
                    notices.append(
                        notice(
                            .noListedFileExists, section, place, type,
                            "none of its URLs is a file here (\(missing.joined(separator: ", "))): \(made.first?.request.path ?? "") is requested"))
                }
                if let first = claimed[name] {
                    notices.append(
                        notice(.keyRepeated, section, place, type, "not loaded: the key '\(name)' was given first in \(first), which is kept"))
                    continue
                }
                claimed[name] = "group '\(section.name)' entry \(index + 1)"
                entries += made.map { entry in
                    var typed = entry
                    typed.phaserType = type
                    return typed
                }
            }
        }
        groups.append(AssetManifest.Group(name: section.name, requires: [], entries: entries))
    }

    /// What an entry makes.
    private enum Made {
        /// What loads, and the files an audio entry listed when none of them exists (a warning).
        case entries([AssetManifest.Entry], missing: [String] = [])
        case elsewhere(String)
    }

    /// `made` for an audio entry whose listed files, `missing`, none exists.
    private func audio(_ made: Made, missing: [String]) -> Made {
        guard case .entries(let entries, _) = made, !missing.isEmpty else { return made }
        return .entries(entries, missing: missing)
    }

    /// The entries of one file of `type`, or `nil` for a type without a plugin.
    private func requests(type: String, file: [String: Any], key: String, name: String, section: Section, place: String) throws -> Made? {
        let urls = section.urls
        func located(_ field: String, extension fallback: String, extensionField: String = "extension") -> PhaserURLs.Location {
            urls.locate(file[field] as? String, key: key, extension: file[extensionField] as? String ?? fallback)
        }
        /// A descriptor at `descriptor` and its one texture, `textureURL` (an atlas, a bitmap
        /// font): `make` gives the request from the descriptor's path and the texture's, which is
        /// the entry's companion.
        func withTexture(_ descriptor: PhaserURLs.Location, _ make: (String, String) throws -> AssetRequest) rethrows -> Made {
            switch (located("textureURL", extension: "png", extensionField: "textureExtension"), descriptor) {
            case (.elsewhere(let url), _), (_, .elsewhere(let url)):
                return .elsewhere(url)
            case (.file(let texture), .file(let path)):
                var made = AssetManifest.Entry(request: try make(path, texture), place: place)
                made.companions = [texture]
                return .entries([made])
            }
        }
        func entry(_ location: PhaserURLs.Location, _ make: (String) throws -> AssetRequest) rethrows -> Made {
            switch location {
            case .elsewhere(let url): .elsewhere(url)
            case .file(let path): .entries([AssetManifest.Entry(request: try make(path), place: place)])
            }
        }
        func request(_ path: String, _ plugin: String, _ settings: [String: Any]) throws -> AssetRequest {
            try self.request(path, name: name, plugin: plugin, settings: settings, section: section, place: place)
        }
        switch type {
        case "image":
            let written = file["url"] as? [Any]
            let image = urls.locate((written?.first ?? file["url"]) as? String, key: key, extension: file["extension"] as? String ?? "png")
            var made = entry(image) { AssetRequest(path: $0, name: name) }
            if case .entries(let entries, _) = made, let normal = (written?.dropFirst().first ?? file["normalMap"]) as? String,
                case .file(let path) = urls.locate(normal, key: key, extension: "png")
            {
                made = .entries(entries + [AssetManifest.Entry(request: AssetRequest(path: path), place: place + " normal map")])
            }
            return made
        case "atlas":
            return try withTexture(located("atlasURL", extension: "json", extensionField: "atlasExtension")) { path, texture in
                try request(path, "atlas", ["pages": [texture]])
            }
        case "aseprite":
            return try withTexture(located("atlasURL", extension: "json", extensionField: "atlasExtension")) { path, texture in
                try request(path, "aseprite-sheet", ["sheet": texture])
            }
        case "multiatlas":
            let folder = urls.locateFolder(baseURL: file["baseURL"] as? String ?? urls.baseURL, path: file["path"] as? String ?? urls.path)
            switch (folder, located("url", extension: "json")) {
            case (.elsewhere(let url), _), (_, .elsewhere(let url)):
                return .elsewhere(url)
            case (.file(let pages), .file(let path)):
                return .entries([AssetManifest.Entry(request: try request(path, "atlas", ["pageFolder": pages]), place: place)])
            }
        case "spritesheet":
            let grid = try self.grid(file["frameConfig"], section: section, place: place)
            return try entry(located("url", extension: "png")) { try request($0, "atlas", ["grid": grid]) }
        case "json":
            return entry(located("url", extension: "json")) { AssetRequest(path: $0, name: name, plugin: "json") }
        case "binary":
            return entry(located("url", extension: "bin")) { AssetRequest(path: $0, name: name, plugin: "data") }
        case "bitmapFont":
            return try withTexture(located("fontDataURL", extension: "xml", extensionField: "fontDataExtension")) { path, texture in
                try request(path, "bmfont", ["pages": [texture]])
            }
        case "tilemapTiledJSON":
            return entry(located("url", extension: "json")) { AssetRequest(path: $0, name: name, plugin: "tilemap") }
        case "tilemapCSV":
            // Phaser gives the tile size when the game makes the map (`make.tilemap`), 32 by default.
            return try entry(located("url", extension: "csv")) {
                try request($0, "tilemap", ["tileWidth": NSNumber(value: 32), "tileHeight": NSNumber(value: 32)])
            }
        case "audio":
            let playable = playable(file["url"] ?? file["urls"], urls: urls, key: key)
            return audio(entry(playable.location) { AssetRequest(path: $0, name: name, plugin: "audio") }, missing: playable.missing)
        case "audioSprite":
            guard file["audioURL"] != nil else { return nil }  // the JSON's own 'resources' are not read
            switch located("jsonURL", extension: "json") {
            case .elsewhere(let url): return .elsewhere(url)
            case .file(let map):
                let playable = playable(file["audioURL"], urls: urls, key: key)
                let made = try entry(playable.location) { try request($0, "audio", ["spriteMap": map]) }
                return audio(made, missing: playable.missing)
            }
        default:
            return nil
        }
    }

    /// The URL to load of an audio entry's `url`: one URL, or a list of URLs or of
    /// `{"url", "type"}` objects (`["theme.ogg", "theme.mp3"]`) of which Phaser plays the first
    /// the browser can. Here: the first whose file exists (an `http://` or `https://` URL is taken
    /// to) and that this machine decodes (what the audio plugin says, an ``InstalledFormatsPlugin``); else the
    /// first that exists (which then fails naming the library to install); else, none existing,
    /// the first this machine decodes (else the first), which fails by its path, with the
    /// URLs looked for to warn of.
    private func playable(_ value: Any?, urls: PhaserURLs, key: String) -> (location: PhaserURLs.Location, missing: [String]) {
        let written: [String] =
            switch value {
            case let one as String: [one]
            case let list as [Any]: list.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["url"] as? String) }
            default: []
            }
        guard written.count > 1 else { return (urls.locate(written.first, key: key, extension: "ogg"), []) }
        let candidates = written.map { url in
            let location = urls.locate(url, key: key, extension: "ogg")
            let file = url.split(separator: "?").first.map(String.init) ?? url
            let exists: Bool =
                switch location {
                case .file(let path): AssetPath.isRemote(path) || FileManager.default.fileExists(atPath: path)
                case .elsewhere: false
                }
            return (location: location, exists: exists, decodes: plugins.decodes("audio", fileExtension: (file as NSString).pathExtension))
        }
        if let found = candidates.first(where: { $0.exists && $0.decodes }) ?? candidates.first(where: \.exists) { return (found.location, []) }
        let missing = candidates.compactMap { candidate -> String? in
            guard case .file(let path) = candidate.location else { return nil }
            return path
        }
        return ((candidates.first(where: \.decodes) ?? candidates[0]).location, missing)
    }

    /// A request of `plugin` for `path` with `settings`, read by the plugin's settings reader
    /// (none when the plugin is not registered: the entry is then skipped as one without a
    /// plugin, ``AssetManifest/skippingEntries(withoutPluginsIn:)``).
    private func request(
        _ path: String, name: String, plugin: String, settings: [String: Any], section: Section, place: String
    ) throws -> AssetRequest {
        var options = AssetOptions()
        if plugins.settings.reader(for: plugin) != nil {
            do {
                try plugins.settings.read(PluginSettingsValues(settings), for: plugin, into: &options)
            } catch {
                throw problem(error.message, section, place)
            }
        }
        return AssetRequest(path: path, name: name, plugin: plugin, options: options)
    }

    /// A sprite sheet's `frameConfig`: `frameWidth` is required (Phaser refuses a sheet
    /// without), `frameHeight` defaults to it, the rest to Phaser's defaults.
    private func grid(_ value: Any?, section: Section, place: String) throws -> [String: Any] {
        guard let config = value as? [String: Any] else { throw problem("'frameConfig' is missing or not an object", section, place) }
        let values = PluginSettingsValues(config)
        let sizes = 1...Int(Int32.max), frames = Int(Int32.min)...Int(Int32.max), gaps = 0...Int(Int32.max)
        do throws(PluginSettingsProblem) {
            guard let width = try values.int("frameWidth", in: sizes) else { throw PluginSettingsProblem("'frameWidth' is missing") }
            let grid = [
                "frameWidth": width, "frameHeight": try values.int("frameHeight", in: sizes) ?? width,
                "startFrame": try values.int("startFrame", in: frames) ?? 0, "endFrame": try values.int("endFrame", in: frames) ?? -1,
                "margin": try values.int("margin", in: gaps) ?? 0, "spacing": try values.int("spacing", in: gaps) ?? 0,
            ]
            return grid.mapValues { NSNumber(value: $0) }
        } catch {
            throw problem("'frameConfig': \(error.message)", section, place)
        }
    }

    private func notice(_ kind: ManifestNotice.Kind, _ section: Section, _ place: String, _ type: String, _ detail: String) -> ManifestNotice {
        ManifestNotice(kind, manifest: manifest, group: section.name, entry: place, type: type, detail)
    }

    private func problem(_ message: String, _ section: Section, _ place: String) -> ManifestError {
        ManifestError(manifest: manifest, group: section.name, entry: place, message)
    }
}
