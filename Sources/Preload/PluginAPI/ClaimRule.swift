/// The claim rule (``PluginRegistry``'s, in one place): which registered plugin loads a file.
/// Planning a batch applies it to every request, and ``PluginRegistry/claimant(of:)`` to a path a
/// tool asks about (a folder walk, a manifest check), so that both give a file to the same plugin.
extension PluginRegistry {
    /// The plugin the claim rule gave a file, and why, when its content overruled its extension.
    struct Claim: Sendable {
        let plugin: RegisteredPlugin
        /// ``AssetWarning/Code/contentNotExtension``, when the file's content gave it to another
        /// plugin than its extension names (a JPEG saved as `.png`).
        let warning: AssetWarning?
    }

    /// The plugin `request` names, else the one claiming its extension (`nil` if neither): where
    /// the rule starts, before any byte of the file is read. Throws when the request names a
    /// plugin that is not registered.
    func nominee(of request: AssetRequest) throws(AssetError) -> RegisteredPlugin? {
        try nominee(path: request.path, named: request.plugin)
    }

    /// ``nominee(of:)`` of a request for `path` naming plugin `identifier` (or none): the parts
    /// the rule reads, so that planning hands them over without copying the request.
    func nominee(path: String, named identifier: String?) throws(AssetError) -> RegisteredPlugin? {
        if let identifier {
            guard let index = index(identifier: identifier) else {
                throw AssetError(path: path, category: .noLoader, reason: "no plugin named '\(identifier)' is registered")
            }
            return plugin(at: index)
        }
        return index(forExtensionOf: path).map { plugin(at: $0) }
    }

    /// The plugin that loads `request`'s file, given its ``nominee(of:)`` and whether it is a
    /// folder: a folder goes to its nominee if that loads folders; a file without a nominee to the
    /// first plugin whose signature its first bytes match, else (an entry) to its container; a
    /// file its extension gave to a plugin that sniffs content and does not recognise it, while
    /// another plugin's signature matches, to that other plugin, with a warning. The file's
    /// first bytes come from `contents` (when read ahead) or are read when needed, and are kept
    /// in `known` for what follows (a size estimate). Throws when no plugin claims the file.
    func claim(
        _ request: AssetRequest, nominee: RegisteredPlugin?, isDirectory: Bool, contents: AssetBytes?, header known: inout [UInt8]?
    ) throws(AssetError) -> Claim {
        try claim(
            path: request.path, namesPlugin: request.plugin != nil, nominee: nominee, isDirectory: isDirectory, contents: contents, header: &known)
    }

    /// ``claim(_:nominee:isDirectory:contents:header:)`` of a request for `path` that names a
    /// plugin or not (`namesPlugin`): the parts the rule reads, so that planning hands them over
    /// without copying the request (~310 instructions a file; callgrind, issue 50).
    func claim(
        path: String, namesPlugin: Bool, nominee: RegisteredPlugin?, isDirectory: Bool, contents: AssetBytes?, header known: inout [UInt8]?
    ) throws(AssetError) -> Claim {
        let plugin = try claimant(path, nominee: nominee, isDirectory: isDirectory, contents: contents, header: &known)
        guard !namesPlugin, !isDirectory,
            let other = contentClaimant(of: path, byExtension: plugin, contents: contents, header: &known)
        else { return Claim(plugin: plugin, warning: nil) }
        let warning = AssetWarning(
            .contentNotExtension,
            "its extension says \(plugin.identifier), but its content is \(other.identifier) (the \(other.identifier) plugin claims it by content)")
        return Claim(plugin: other, warning: warning)
    }

    /// The plugin for the file at `path` before its content is checked against its extension:
    /// its `nominee`, else the one its first bytes (read into `known` when not known yet) or its
    /// container claim it for.
    private func claimant(
        _ path: String, nominee: RegisteredPlugin?, isDirectory: Bool, contents: AssetBytes?, header known: inout [UInt8]?
    ) throws(AssetError) -> RegisteredPlugin {
        if isDirectory {
            guard let plugin = nominee, plugin.loader.acceptsDirectories else {
                throw AssetError(
                    path: path, category: .unreadable,
                    reason:
                        "is a folder no loader plugin loads as one asset (to load the files in it, request AssetRequest.folder(\"\(path)\"))")
            }
            return plugin
        }
        if let nominee { return nominee }
        let header: [UInt8]
        do {
            header = try known ?? contents.map { $0.leadingBytes(longestHeader) } ?? files.prefix(path, count: longestHeader)
        } catch {
            throw AssetError(path: path, wrapping: error)
        }
        known = header
        let more = { (count: Int) in contents.map { $0.leadingBytes(count) } ?? (try? files.prefix(path, count: count)) }
        if let plugin = plugin(forHeader: header, more: more), let registered = registered(identifier: plugin.identifier) {
            return registered
        }
        // An entry nobody else claims is its container's to deliver (as raw bytes, typically).
        if let (_, _, container) = files.locate(path), let registered = registered(identifier: container.identifier) {
            return registered
        }
        throw AssetError(path: path, category: .noLoader, reason: "no loader plugin claims this file")
    }

    /// Another plugin whose signature the file's content matches, when the plugin its extension
    /// chose sniffs content and does not recognise it (a JPEG saved as `.png`): files are claimed
    /// by content, not only by name. The extension's plugin's header (from the bytes read ahead,
    /// else a few bytes read now) is kept in `known`; more is read only when it does not match.
    private func contentClaimant(
        of path: String, byExtension plugin: RegisteredPlugin, contents: AssetBytes?, header known: inout [UInt8]?
    ) -> RegisteredPlugin? {
        let loader = plugin.loader
        guard loader.headerLength > 0, sniffers > 1 else { return nil }
        if known == nil {
            known = contents.map { $0.leadingBytes(loader.headerLength) } ?? (try? files.prefix(path, count: loader.headerLength))
        }
        guard let own = known, !own.isEmpty else { return nil }  // unreadable: the plugin's own load says why
        // A plugin that cannot tell from its header keeps what its extension gave it.
        if loader.signatureMatch(own.count > loader.headerLength ? Array(own.prefix(loader.headerLength)) : own) != .differs { return nil }
        let more = { (count: Int) in contents.map { $0.leadingBytes(count) } ?? (try? files.prefix(path, count: count)) }
        let header = more(longestHeader) ?? own
        known = header
        guard let other = self.plugin(forHeader: header, more: more), other.identifier != loader.identifier else { return nil }
        return registered(identifier: other.identifier)
    }
}
