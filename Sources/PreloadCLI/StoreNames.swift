import ArgumentParser
import Foundation

/// `--root DIR`: the folder store names are relative to. A Phaser asset pack's URLs are (its web
/// root), and so are the paths given: `--root /build/assets /build/assets/level1` names
/// `level1/hero.png`, as `cd /build/assets; preload level1` would, so a build system that passes
/// absolute paths gets the same names (and a bake the same entries).
enum StoreNames {
    /// The store name of `path` under `root`: its path relative to `root` (`""` for the folder
    /// itself, whose files are then named by their paths inside it); `nil` without a root (the
    /// path as given is the name). A usage error when `path` is not inside `root`.
    static func name(of path: String, root: String?) throws -> String? {
        guard let root else { return nil }
        let base = absolute(root), full = absolute(path)
        if full == base { return "" }
        let inside = base == "/" ? base : base + "/"
        guard full.hasPrefix(inside) else {
            throw ValidationError("\(path) is not inside --root \(root): store names are paths relative to it")
        }
        return String(full.dropFirst(inside.count))
    }

    /// `path` made absolute from the current folder, `.` and `..` applied lexically (symbolic
    /// links are not followed: names are what the caller wrote).
    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
