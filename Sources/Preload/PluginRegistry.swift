/// The set of loader plugins a coordinator uses, and the rule that decides which one loads a file.
///
/// **Claim rule.** A request that names a plugin goes to it. Otherwise the file's extension
/// decides (case-insensitive). A file whose extension no plugin claims is offered to the
/// plugins that sniff content, in registration order; the first whose signature matches wins.
///
/// **Duplicate claims.** Two plugins may not share an identifier or an extension unless the
/// caller says what should happen, with ``ConflictPolicy``: the default refuses the second
/// registration with an error naming both plugins.
public struct PluginRegistry: Sendable {
    /// What ``register(_:onConflict:)`` does when the new plugin's identifier or an extension
    /// is already taken.
    public enum ConflictPolicy: Sendable {
        /// Throw ``RegistrationError`` and leave the registry unchanged (the default).
        case reject
        /// The new plugin takes over the identifier (the old plugin with it is removed) and the
        /// contested extensions (the other plugin stays, for requests that name it).
        case replace
        /// The existing plugins keep what they claim; the new plugin gets only what is free.
        case keepExisting
    }

    /// A registration refused under ``ConflictPolicy/reject``.
    public struct RegistrationError: Error, Sendable, CustomStringConvertible {
        public let plugin: String
        public let existing: String
        /// The contested extension, or `nil` when the identifier itself is taken.
        public let fileExtension: String?

        public var description: String {
            if let fileExtension {
                return "plugin '\(plugin)' claims .\(fileExtension), already claimed by '\(existing)'"
            }
            return "a plugin with identifier '\(plugin)' is already registered"
        }
    }

    private var plugins: [any LoaderPlugin] = []
    private var byExtension: [String: String] = [:]

    /// An empty registry.
    public init() {}

    /// A registry holding `plugins`, registered in order with ``ConflictPolicy/reject``.
    public init(_ plugins: [any LoaderPlugin]) throws {
        for plugin in plugins { try register(plugin) }
    }

    /// Adds `plugin`, resolving clashes with `policy`.
    public mutating func register(_ plugin: any LoaderPlugin, onConflict policy: ConflictPolicy = .reject) throws {
        let extensions = plugin.fileExtensions.map { $0.lowercased() }.sorted()
        let identifierTaken = plugins.contains { $0.identifier == plugin.identifier }
        if policy == .reject {
            if identifierTaken {
                throw RegistrationError(plugin: plugin.identifier, existing: plugin.identifier, fileExtension: nil)
            }
            if let clash = extensions.first(where: { byExtension[$0] != nil }) {
                throw RegistrationError(plugin: plugin.identifier, existing: byExtension[clash]!, fileExtension: clash)
            }
        }
        if identifierTaken {
            if policy == .keepExisting { return }
            plugins.removeAll { $0.identifier == plugin.identifier }
            byExtension = byExtension.filter { $0.value != plugin.identifier }
        }
        for fileExtension in extensions where policy == .replace || byExtension[fileExtension] == nil {
            byExtension[fileExtension] = plugin.identifier
        }
        plugins.append(plugin)
    }

    /// The registered plugins, in registration order.
    public var all: [any LoaderPlugin] { plugins }

    /// The plugin registered as `identifier`.
    public func plugin(identifier: String) -> (any LoaderPlugin)? {
        plugins.first { $0.identifier == identifier }
    }

    /// The plugin that claims `path` by its extension.
    public func plugin(forExtensionOf path: String) -> (any LoaderPlugin)? {
        guard let fileExtension = Self.fileExtension(of: path), let identifier = byExtension[fileExtension] else {
            return nil
        }
        return plugin(identifier: identifier)
    }

    /// The first sniffing plugin whose signature matches the start of the file.
    public func plugin(forHeader header: [UInt8]) -> (any LoaderPlugin)? {
        plugins.first { $0.headerLength > 0 && $0.matchesSignature(Array(header.prefix($0.headerLength))) }
    }

    /// How plugins read files: the disk, and entries of the containers registered plugins open.
    public var files: AssetFiles {
        AssetFiles(containers: plugins.compactMap { $0 as? any ContainerPlugin })
    }

    /// The longest header any plugin wants to see.
    public var longestHeader: Int { plugins.map(\.headerLength).max() ?? 0 }

    /// Whether some plugin claims `path`, reading the file's first bytes only when no extension
    /// decides. This is the rule the coordinator applies; the command line uses it to skip
    /// files nobody loads.
    public func claimant(of path: String) -> (any LoaderPlugin)? {
        if let plugin = plugin(forExtensionOf: path) { return plugin }
        let files = self.files
        if (try? files.facts(of: path))?.isDirectory == true { return nil }  // folders: by name only
        let length = longestHeader
        guard length > 0, let header = try? files.prefix(path, count: length) else { return nil }
        return plugin(forHeader: header)
    }

    /// The lowercase extension of the last path component, without the dot. Allocation-free for
    /// short extensions (Swift stores strings of up to 15 UTF-8 bytes inline).
    static func fileExtension(of path: String) -> String? {
        let bytes = path.utf8
        var index = bytes.endIndex
        while index > bytes.startIndex {
            let previous = bytes.index(before: index)
            switch bytes[previous] {
            case UInt8(ascii: "/"):
                return nil
            case UInt8(ascii: "."):
                // A leading dot names a hidden file, not an extension; so does a trailing one.
                guard previous > bytes.startIndex, bytes[bytes.index(before: previous)] != UInt8(ascii: "/"),
                    index < bytes.endIndex
                else { return nil }
                let fileExtension = String(path[index...])
                let hasUppercase = fileExtension.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
                return hasUppercase ? fileExtension.lowercased() : fileExtension
            default:
                index = previous
            }
        }
        return nil
    }
}
