import Foundation

/// What an ``AssetWatcher`` did about a changed file: the asset it reloaded into the store (or,
/// for a file added to a watched folder, loaded into it), or why the old one stays.
public struct AssetReload: Sendable, CustomStringConvertible {
    /// What became of the asset.
    public enum Outcome: Sendable {
        /// The new asset, now in the store under ``AssetReload/name`` (and its dependencies under
        /// theirs): upload it again.
        case reloaded(any Asset)
        /// The changed files did not load (a cut PNG, a broken atlas); the old asset stays (a new
        /// file's has none).
        case failed(AssetError)
        /// A file the asset is made from is gone (deleted, or renamed away); the old asset
        /// stays, and reloads when the file comes back.
        case fileMissing(String)
    }

    /// The asset's store name: the name the caller asked for.
    public let name: String
    /// The asset's file, as the request named it.
    public let path: String
    /// The files whose change caused this, the asset's own or its dependencies' (an atlas's
    /// page), as absolute paths.
    public let changedFiles: [String]
    /// What became of the asset.
    public let outcome: Outcome
    /// Whether the asset is new: a file added to a folder the watched batch walked
    /// (``AssetRequest/folder(_:name:options:)``), or a folder made there, loaded for the first
    /// time.
    public let isNew: Bool

    init(name: String, path: String, changedFiles: [String], outcome: Outcome, isNew: Bool = false) {
        self.name = name
        self.path = path
        self.changedFiles = changedFiles
        self.outcome = outcome
        self.isNew = isNew
    }

    /// The new asset, if it reloaded.
    public var asset: (any Asset)? {
        if case .reloaded(let asset) = outcome { asset } else { nil }
    }

    /// One line: `reloaded ui (assets/ui.json)`, `added coin.png`, `failed hero.png: ...`,
    /// `missing ...`.
    public var description: String {
        let subject = name == path ? name : "\(name) (\(path))"
        switch outcome {
        case .reloaded: return (isNew ? "added " : "reloaded ") + subject
        case .failed(let error): return "failed \(subject): \(error.reason)" + (isNew ? "" : "; the loaded asset stays")
        case .fileMissing(let file):
            // The file as the request spelled its path: relative to the current folder when it is there.
            let directory = FileManager.default.currentDirectoryPath
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            let shown = !path.hasPrefix("/") && file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
            return "missing \(subject): \(shown) is gone; the loaded asset stays"
        }
    }
}
