/// The set of loader plugins a coordinator uses, and the rule that decides which one loads a file.
///
/// **Claim rule.** A request that names a plugin goes to it. Otherwise the file's extension
/// decides (case-insensitive). A file whose extension no plugin claims is offered to the
/// plugins that sniff content, in registration order; the first whose signature matches wins
/// (a plugin that cannot tell from a file's first bytes reads on, within its
/// ``LoaderPlugin/signatureReach``: ``LoaderPlugin/signatureMatch(_:)``).
/// A file whose extension's plugin sniffs content and does not recognise it, while another
/// plugin's signature matches (a JPEG saved as `.png`), goes to that other plugin, with an
/// ``AssetWarning/Code/contentNotExtension`` warning on the asset. An entry of a container that
/// no plugin claims is its container's to deliver; a folder goes only to a plugin that loads
/// folders. Planning a batch and ``claimant(of:)`` apply this one rule.
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
        /// The identifier of the plugin that was refused.
        public let plugin: String
        /// The identifier of the plugin already registered for it.
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
    /// Where each identifier's and each extension's plugin is in ``plugins``: claiming a file is
    /// two dictionary lookups, not a search.
    private var indexOfIdentifier: [String: Int] = [:]
    private var extensionTable: [(bytes: [UInt8], index: Int)] = []
    /// ``extensionTable``'s short ASCII extensions, packed (``packedLowercase(_:)``), each in its
    /// slot of a table made so that no two share one (``PackedExtensionSlots``).
    private var packedExtensions = PackedExtensionSlots()
    /// How plugins read files: the disk, and entries of the containers registered plugins open.
    package private(set) var files = AssetFiles()
    /// The plugins as the engine hands them on, in the same order.
    private var registered: [RegisteredPlugin] = []
    /// The asset types that read baked entries, by kind name: core's and the ``BakingPlugin``s'.
    public private(set) var bakedKinds = BakedKinds()

    /// An empty registry.
    public init() {}

    /// A registry holding `plugins`, registered in order with ``ConflictPolicy/reject``.
    public init(_ plugins: [any LoaderPlugin]) throws {
        for plugin in plugins { try add(plugin, onConflict: .reject) }
        makeTables()  // once for all of them, not once per plugin
    }

    /// Adds `plugin`, resolving clashes with `policy`.
    public mutating func register(_ plugin: any LoaderPlugin, onConflict policy: ConflictPolicy = .reject) throws {
        try add(plugin, onConflict: policy)
        makeTables()
    }

    /// Adds `plugin` to ``all`` and the extension table, resolving clashes with `policy`; the
    /// tables made from them are made again by ``makeTables()``.
    private mutating func add(_ plugin: any LoaderPlugin, onConflict policy: ConflictPolicy) throws {
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

    /// Makes what planning looks plugins up by from ``all``: their indices, the extension tables,
    /// their registered forms and what each can do (each plugin's own answers, ``LoaderPlugin/asContainer``
    /// and its siblings).
    /// Made once per registry, not once per plugin registered: the command's 13 plugins made
    /// every table 13 times at each start.
    private mutating func makeTables() {
        indexOfIdentifier = Dictionary(uniqueKeysWithValues: plugins.enumerated().map { ($1.identifier, $0) })
        extensionTable = byExtension.sorted { $0.key < $1.key }.compactMap { fileExtension, identifier in
            indexOfIdentifier[identifier].map { (Array(fileExtension.utf8), $0) }
        }
        packedExtensions = PackedExtensionSlots(
            extensionTable.compactMap { entry in entry.bytes.withUnsafeBufferPointer(Self.packedLowercase).map { ($0, entry.index) } })
        sniffers = plugins.count { $0.headerLength > 0 }
        longestHeader = plugins.map(\.headerLength).max() ?? 0
        registered = plugins.enumerated().map { [sniffers, longestHeader] in
            RegisteredPlugin($1, index: $0, sniffers: sniffers, longestHeader: longestHeader)
        }
        hasExpanders = registered.contains(where: \.expands)
        files = AssetFiles(containers: plugins.compactMap(\.asContainer)).serving(files.sources)
        bakedKinds = BakedKinds(plugins: plugins)
    }

    /// This registry, its plugins reading the paths `sources` own through them (the first that
    /// owns a path), before containers' entries and the disk: a coordinator's, with its
    /// ``PreloadCoordinator/Configuration/sources``.
    package func serving(_ sources: [any AssetSource]) -> PluginRegistry {
        var served = self
        served.files = files.serving(sources)
        return served
    }

    /// The registered plugins, in registration order.
    public var all: [any LoaderPlugin] { plugins }

    /// Whether any registered plugin expands its files into many requests (``ExpandingPlugin``).
    package private(set) var hasExpanders = false

    /// The plugin that expands `request`'s file into many requests, if one claims it: the one
    /// the request names, else the one claiming its extension. Content is not sniffed.
    package func expander(of request: AssetRequest) -> (any ExpandingPlugin)? {
        guard let index = request.plugin.map({ indexOfIdentifier[$0] }) ?? index(forExtensionOf: request.path), registered[index].expands
        else { return nil }
        return plugins[index].asExpanding
    }

    /// The plugin registered as `identifier` (its ``LoaderPlugin/identifier``), if any.
    public func plugin(identifier: String) -> (any LoaderPlugin)? {
        indexOfIdentifier[identifier].map { plugins[$0] }
    }

    /// The plugin that claims `path` by its extension.
    package func plugin(forExtensionOf path: String) -> (any LoaderPlugin)? {
        index(forExtensionOf: path).map { plugins[$0] }
    }

    /// The index of the plugin registered as `identifier` (see ``plugin(at:)``).
    package func index(identifier: String) -> Int? {
        indexOfIdentifier[identifier]
    }

    /// The plugin registered at `index` (from ``index(identifier:)`` or ``index(forExtensionOf:)``).
    func plugin(at index: Int) -> RegisteredPlugin {
        registered[index]
    }

    /// The registered plugins, by index (``RegisteredPlugin/index``).
    var registeredPlugins: [RegisteredPlugin] { registered }

    /// The registered plugin whose ``LoaderPlugin/identifier`` is `identifier`.
    func registered(identifier: String) -> RegisteredPlugin? {
        indexOfIdentifier[identifier].map { registered[$0] }
    }

    /// The first sniffing plugin whose signature matches the start of the file, `header`: each
    /// is shown its ``LoaderPlugin/headerLength`` bytes of it and, while it cannot tell, longer
    /// prefixes (``signatureMatch(of:header:more:)``).
    package func plugin(forHeader header: [UInt8], more: (Int) -> [UInt8]? = { _ in nil }) -> (any LoaderPlugin)? {
        plugins.first { $0.headerLength > 0 && Self.signatureMatch(of: $0, header: header, more: more) == .matches }
    }

    /// What `plugin` says of a file that starts with `header`: its ``LoaderPlugin/headerLength``
    /// bytes, then, while it answers ``SignatureMatch/undecided``, prefixes four times longer
    /// (from `header` while it has them, else from `more`, which reads the file's first bytes, up
    /// to the count asked), up to its ``LoaderPlugin/signatureReach``. Undecided at the file's
    /// end, or at the reach, stays undecided: not a match.
    package static func signatureMatch(of plugin: any LoaderPlugin, header: [UInt8], more: (Int) -> [UInt8]?) -> SignatureMatch {
        var wanted = plugin.headerLength
        var prefix = header.count > wanted ? Array(header.prefix(wanted)) : header
        var answer = plugin.signatureMatch(prefix)
        while answer == .undecided, wanted < plugin.signatureReach {
            wanted = min(plugin.signatureReach, max(wanted * 4, 64 << 10))
            let longer = header.count >= wanted ? Array(header.prefix(wanted)) : (more(wanted) ?? prefix)
            guard longer.count > prefix.count else { break }  // the file ends here
            prefix = longer
            answer = plugin.signatureMatch(prefix)
        }
        return answer
    }

    /// How many registered plugins sniff content (a file can be claimed by content against its
    /// extension only when two do).
    package private(set) var sniffers = 0

    /// The longest header any plugin wants to see.
    package private(set) var longestHeader = 0

    /// The plugin that loads the file at `path` when a batch is asked for it without naming a
    /// plugin: the claim rule above, applied as planning applies it (its extension, else its
    /// first bytes, else its container for an entry; and its content over its extension when
    /// they disagree). `nil` when no plugin claims it, or when it must be read to tell and
    /// cannot be (a batch says why). A folder is claimed only by a plugin that loads folders.
    public func claimant(of path: String) -> (any LoaderPlugin)? {
        let request = AssetRequest(path: path)
        let isDirectory = (try? files.facts(of: path))?.isDirectory == true
        let nominee = try? self.nominee(of: request)  // nil when no extension names one: the request names no plugin, so it cannot throw
        var header: [UInt8]?
        return (try? claim(request, nominee: nominee, isDirectory: isDirectory, contents: nil, header: &header))?.plugin.loader
    }

    /// An ASCII extension of one to eight bytes, lowercased, packed into one word (its length in
    /// the top bits is implied: no byte is zero); `nil` for any other.
    static func packedLowercase(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 8 else { return nil }
        var packed: UInt64 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte != 0, byte < 0x80 else { return nil }
            packed |= UInt64(byte >= 65 && byte <= 90 ? byte | 0x20 : byte) << UInt64(index * 8)
        }
        return packed
    }

    /// Where the extension of the last path component is in `bytes` (after the dot). A leading
    /// dot names a hidden file, not an extension; so does a trailing one.
    private static func extensionRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var index = bytes.count
        while index > 0 {
            let previous = index - 1
            switch bytes[previous] {
            case UInt8(ascii: "/"):
                return nil
            case UInt8(ascii: "."):
                guard previous > 0, bytes[previous - 1] != UInt8(ascii: "/"), index < bytes.count else { return nil }
                return index..<bytes.count
            default:
                index = previous
            }
        }
        return nil
    }

    /// The index in ``plugins`` of the plugin that claims `path`'s extension, compared
    /// case-insensitively without making a string (a batch claims every one of its files this
    /// way): a short ASCII extension, packed as it is found from the path's end, is one slot of
    /// ``packedExtensions`` (~60 instructions a file, where a copy of the path, a search of the
    /// range and a search by halves were ~310; callgrind, issue 50); any other is compared with
    /// each claimed one.
    package func index(forExtensionOf path: String) -> Int? {
        switch path.utf8.withContiguousStorageIfAvailable(PackedExtensionSlots.packedExtension) {
        case .some(.absent): return nil
        case .some(.packed(let packed)): return packedExtensions.index(of: packed)
        case .some(.other), nil: return index(forAnyExtensionOf: path)
        }
    }

    /// ``index(forExtensionOf:)`` of an extension that is not short ASCII (or of a path whose
    /// bytes are not contiguous): its bytes compared with each claimed extension's.
    private func index(forAnyExtensionOf path: String) -> Int? {
        var path = path
        return path.withUTF8 { bytes in
            guard let range = Self.extensionRange(in: bytes) else { return nil }
            let candidate = UnsafeBufferPointer(rebasing: bytes[range])
            if let packed = Self.packedLowercase(candidate) { return packedExtensions.index(of: packed) }
            if candidate.contains(where: { $0 >= 0x80 }) {  // not ASCII: Unicode's lowercasing
                let lowercased = String(decoding: candidate, as: UTF8.self).lowercased()
                return extensionTable.first { $0.bytes.elementsEqual(lowercased.utf8) }?.index
            }
            for position in extensionTable.indices where extensionTable[position].bytes.count == candidate.count {
                if zip(extensionTable[position].bytes, candidate).allSatisfy({ $0 == ($1 >= 65 && $1 <= 90 ? $1 | 0x20 : $1) }) {
                    return extensionTable[position].index
                }
            }
            return nil
        }
    }
}
