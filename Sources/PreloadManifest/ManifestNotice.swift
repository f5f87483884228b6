/// Something a manifest asks for that will not load, named like a ``ManifestError`` but not
/// stopping the rest: `pack.json: group 'level1': entry 5 ('intro'): video: skipped: no
/// Preload plugin loads 'video' files`.
///
/// A Phaser pack lists videos, scripts and shaders beside its images, sounds and fonts; Preload
/// loads what it has plugins for and counts the rest, so a pack written for the browser loads
/// as it is.
public struct ManifestNotice: Sendable, Hashable, CustomStringConvertible {
    /// What kind of notice this is.
    public enum Kind: String, Sendable, Hashable {
        /// An entry of a type Preload has no plugin for (`video`, `spine`, `script`, ...): skipped.
        case unsupportedType = "unsupported-type"
        /// An entry whose URL is neither a file on disk nor an `http://` or `https://` URL
        /// (`//cdn`, whose scheme is the page's, `data:`, `blob:`): not loaded.
        case notOnDisk = "not-on-disk"
        /// A key given to an earlier entry too: the first is kept, as Phaser keeps it.
        case keyRepeated = "key-repeated"
        /// An entry whose plugin Preload has, but the coordinator loading the groups has not
        /// registered (a sound without `AudioLoader`): skipped, as a type without a plugin is
        /// (``AssetGroups/manifest`` lists it).
        case pluginNotRegistered = "plugin-not-registered"
        /// An entry listing files to choose from (an `audio` entry's `["theme.ogg", "theme.mp3"]`)
        /// none of which exists: the one this machine would decode is requested, and fails by
        /// its path.
        case noListedFileExists = "no-listed-file-exists"
    }

    /// What kind of notice this is.
    public let kind: Kind
    /// The manifest file, as given.
    public let manifest: String
    /// The group the entry is in.
    public let group: String?
    /// The entry: its position in the group (from 1) and its key.
    public let entry: String?
    /// The entry's type, as the manifest writes it (`audio`).
    public let type: String
    /// What happens to it, in words.
    public let detail: String

    init(_ kind: Kind, manifest: String, group: String?, entry: String?, type: String, _ detail: String) {
        self.kind = kind
        self.manifest = manifest
        self.group = group
        self.entry = entry
        self.type = type
        self.detail = detail
    }

    /// Whether this is a warning (`--strict` fails it) rather than an entry skipped by design:
    /// a remote URL or a repeated key is a mistake to fix for asset CI, a sound is not.
    public var isWarning: Bool { kind != .unsupportedType && kind != .pluginNotRegistered }

    /// The notice with everything it names, in one line.
    public var description: String {
        ManifestError(manifest: manifest, group: group, entry: entry, "\(type): \(detail)").description
    }
}
