import Preload
import PreloadManifest

/// The hint printed when a Phaser asset pack's files are not found and no `--root` was given:
/// its URLs are relative to the web root, which is rarely the folder the command runs in.
enum PhaserRootHint {
    /// The hint for `report`, which loaded `requests` of `manifest` (among others), or `nil`
    /// when it does not apply (a root was given, not a Phaser pack, or nothing of it missing).
    static func line(for report: PreloadReport, manifest: AssetManifest?, requests: [AssetRequest], root: String?) -> String? {
        guard root == nil, let manifest, manifest.dialect == .phaserPack else { return nil }
        let fromPack = Set(requests.map(\.path))
        let missing = report.errors.filter { $0.category == .fileNotFound && fromPack.contains($0.path) }.count
        guard missing > 0 else { return nil }
        return "\(counted(missing, "file")) of the Phaser asset pack not found from the current folder: its URLs are relative to the web root; "
            + "pass --root DIR (the folder the game's page is served from)"
    }
}
