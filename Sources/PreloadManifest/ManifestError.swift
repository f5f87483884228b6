/// A problem with a manifest, naming the manifest, and the group and entry where there is one:
/// `levels.json: group 'level1': entry 3 ('hero.png'): the file does not exist`.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest file, as given.
    public let manifest: String
    /// The group the problem is in, if any.
    public let group: String?
    /// The entry the problem is in: its position in the group (from 1) and its path as written.
    public let entry: String?
    /// What is wrong.
    public let problem: String

    init(manifest: String, group: String? = nil, entry: String? = nil, _ problem: String) {
        self.manifest = manifest
        self.group = group
        self.entry = entry
        self.problem = problem
    }

    /// The problem with everything it names, in one line.
    public var description: String {
        var parts = [manifest]
        if let group { parts.append("group '\(group)'") }
        if let entry { parts.append(entry) }
        parts.append(problem)
        return parts.joined(separator: ": ")
    }
}
