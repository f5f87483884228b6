import Foundation
import Preload

extension AssetManifest {
    /// Everything wrong with the manifest short of decoding, for asset CI (`preload manifest
    /// check`): groups that require unknown groups or each other, and entries whose file or
    /// folder does not exist, whose plugin is not registered, or that no plugin in `registry`
    /// claims. Empty when the manifest is sound.
    public func problems(registry: PluginRegistry) -> [ManifestError] {
        var found: [ManifestError] = []
        for group in groups {
            do {
                _ = try resolve([group.name])
            } catch let error as ManifestError {
                if !found.contains(error) { found.append(error) }
            } catch {}
            for entry in group.entries {
                if let problem = problem(with: entry.request, registry: registry) {
                    found.append(ManifestError(manifest: path, group: group.name, entry: entry.place, problem))
                }
                for companion in entry.companions where !AssetPath.isRemote(companion) && !FileManager.default.fileExists(atPath: companion) {
                    found.append(ManifestError(manifest: path, group: group.name, entry: entry.place, "\(companion) does not exist"))
                }
            }
        }
        return found
    }

    private func problem(with request: AssetRequest, registry: PluginRegistry) -> String? {
        // A URL is not fetched to be checked: only the plugin it names is.
        if AssetPath.isRemote(request.path) {
            if let identifier = request.plugin {
                return registry.plugin(identifier: identifier) == nil ? "no plugin is called '\(identifier)'" : nil
            }
            return nil  // the content decides what its extension does not, once fetched
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: request.path, isDirectory: &isDirectory) else {
            return "\(request.path) does not exist"
        }
        if request.isFolder {
            return isDirectory.boolValue ? nil : "\(request.path) is not a folder (a path ending in '/' names one)"
        }
        if let identifier = request.plugin {
            return registry.plugin(identifier: identifier) == nil
                ? "no plugin is called '\(identifier)' (registered: \(registry.all.map(\.identifier).sorted().joined(separator: ", ")))" : nil
        }
        guard registry.claimant(of: request.path) != nil else {
            return isDirectory.boolValue
                ? "\(request.path) is a folder no plugin loads (end the path with '/' to load the files in it)"
                : "no plugin loads \(request.path)"
        }
        return nil
    }
}
