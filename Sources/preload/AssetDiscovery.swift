import Foundation
import Preload

/// Turns the command's path arguments into requests: files as given, directories walked
/// recursively in sorted order, each file kept only if a plugin claims it.
struct AssetDiscovery {
    struct Found {
        var requests: [AssetRequest] = []
        /// Files no plugin claims, as found.
        var skipped: [String] = []
    }

    let registry: PluginRegistry

    func collect(_ arguments: [String]) throws -> Found {
        var found = Found()
        var seen = Set<String>()
        for argument in arguments {
            for path in try files(under: argument) where seen.insert(path).inserted {
                if let plugin = registry.claimant(of: path) {
                    // Naming the plugin spares the coordinator a second look at the content.
                    found.requests.append(AssetRequest(path: path, plugin: plugin.identifier))
                } else {
                    found.skipped.append(path)
                }
            }
        }
        return found
    }

    /// `argument` itself if it is a file, else every non-hidden file below it, sorted.
    private func files(under argument: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [argument]
        }
        guard let walker = FileManager.default.enumerator(atPath: argument) else { return [] }
        let prefix = argument.hasSuffix("/") ? argument : argument + "/"
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeRegular
                || (walker.fileAttributes?[.type] as? FileAttributeType) == .typeSymbolicLink
            {
                files.append(prefix + relative)
            }
        }
        return files.sorted()
    }
}
