import ArgumentParser
import Foundation
import Preload

/// The one rule for every path the command writes to (`bake -o`, `--contact-sheet`, `pack
/// create -o`, `pack extract -o`, `atlas pack --output`, `export --to`): the folder that holds it
/// must exist. The command makes no folder but the output folder it fills (`export --to DIR`,
/// `pack extract -o DIR`) and the folders inside it, so a mistyped path is a usage error naming
/// the missing folder rather than a new tree somewhere.
enum OutputPath {
    /// Throws a usage error unless the folder holding `path` (given with `option`) exists.
    static func check(_ path: String, option: String) throws {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let parent = (trimmed as NSString).deletingLastPathComponent
        guard !parent.isEmpty, !isFolder(parent) else { return }
        throw ValidationError("\(option) \(path): the folder \(parent) does not exist (an output goes into a folder that exists: make it first)")
    }
}
