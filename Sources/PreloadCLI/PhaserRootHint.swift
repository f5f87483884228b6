import Foundation
import Preload
import PreloadManifest

/// The hint printed when a Phaser asset pack's files are not found and no `--root` was given:
/// its URLs are relative to the web root, which is rarely the folder the command runs in.
/// Loading, baking, exporting and `manifest check` print the same hint.
enum PhaserRootHint {
    /// The hint for `report`, which loaded `requests` of `manifest` (among others), or `nil`
    /// when it does not apply (a root was given, not a Phaser pack, or nothing of it missing).
    static func line(for report: PreloadReport, manifest: AssetManifest?, requests: [AssetRequest], root: String?) -> String? {
        // Asked only where the hint can apply: the report's errors are made from a result per
        // request, ~1,200 instructions per asset of a folder of 20,000 (callgrind, issue 50).
        guard root == nil, manifest?.dialect == .phaserPack else { return nil }
        let fromPack = Set(requests.map(\.path))
        return line(
            missing: report.errors.filter { $0.category == .fileNotFound && fromPack.contains($0.path) }.count, manifest: manifest, root: root)
    }

    /// The hint for `manifest` as `preload manifest check` sees it, before loading anything: its
    /// entries whose file does not exist (URLs are not fetched to be checked).
    static func line(checking manifest: AssetManifest, root: String?) -> String? {
        let paths = manifest.groups.flatMap(\.entries).map(\.request.path)
        return line(
            missing: paths.filter { !AssetPath.isRemote($0) && !FileManager.default.fileExists(atPath: $0) }.count, manifest: manifest, root: root)
    }

    private static func line(missing: Int, manifest: AssetManifest?, root: String?) -> String? {
        guard root == nil, let manifest, manifest.dialect == .phaserPack, missing > 0 else { return nil }
        return "\(counted(missing, "file")) of the Phaser asset pack not found from the current folder: its URLs are relative to the web root; "
            + "pass --root DIR (the folder the game's page is served from)"
    }
}
