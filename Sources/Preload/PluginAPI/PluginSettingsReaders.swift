/// The settings readers of a set of plugins, by key: what a manifest reads entries' `"options"`
/// with, and the command its `--set KEY.NAME=VALUE`, so that both accept the same keys and give
/// the same errors.
public struct PluginSettingsReaders: Sendable {
    private let readers: [String: any PluginSettingsReader]

    /// `readers`, by key (of two with one key, the first).
    public init(_ readers: [any PluginSettingsReader]) {
        var byKey: [String: any PluginSettingsReader] = [:]
        for reader in readers where byKey[reader.key] == nil { byKey[reader.key] = reader }
        self.readers = byKey
    }

    /// The readers of `registry`'s ``ConfigurablePlugin``s, in registration order, then `extra`.
    public init(registry: PluginRegistry, extra: [any PluginSettingsReader] = []) {
        self.init(registry.all.compactMap { ($0 as? any ConfigurablePlugin)?.settingsReader } + extra)
    }

    /// The keys read, sorted.
    public var keys: [String] { readers.keys.sorted() }

    /// The reader of `key`; `nil` when no plugin's settings are called that.
    public func reader(for key: String) -> (any PluginSettingsReader)? { readers[key] }

    /// "no plugin's options are called 'pgn' (known: atlas, png)": what is said of a key that
    /// no reader reads.
    public func unknownKey(_ key: String) -> PluginSettingsProblem {
        PluginSettingsProblem("no plugin's options are called '\(key)' (known: \(keys.joined(separator: ", ")))")
    }

    /// Reads `values` with `key`'s reader into `options`: throws ``unknownKey(_:)`` for a key no
    /// reader reads, else `'png': ...` for a bad value (the reader's message) or a member the
    /// reader did not read (`'png': unknown option 'alpa'`).
    public func read(_ values: PluginSettingsValues, for key: String, into options: inout AssetOptions) throws(PluginSettingsProblem) {
        guard let reader = readers[key] else { throw unknownKey(key) }
        do {
            try reader.read(values, into: &options)
        } catch let problem as PluginSettingsProblem {
            throw PluginSettingsProblem("'\(key)': \(problem.message)")
        } catch {
            throw PluginSettingsProblem("'\(key)': \(error)")
        }
        if let unknown = values.unreadKeys.first { throw PluginSettingsProblem("'\(key)': unknown option '\(unknown)'") }
    }

    /// Reads command-line assignments, `KEY.NAME=VALUE` each (`png.alpha=premultiplied`,
    /// `atlas.grid.frameWidth=32`), into `options`, plugin by plugin in the order first given
    /// (a name given twice: the last value). Throws as ``read(_:for:into:)`` does, and for an
    /// assignment that is not `KEY.NAME=VALUE`.
    public func read(assignments: [String], into options: inout AssetOptions) throws(PluginSettingsProblem) {
        var order: [String] = []
        var members: [String: [String: String]] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), let dot = assignment[..<equals].firstIndex(of: "."),
                dot != assignment.startIndex, assignment.index(after: dot) != equals
            else {
                throw PluginSettingsProblem("'\(assignment)' is not KEY.NAME=VALUE (png.alpha=premultiplied, say)")
            }
            let key = String(assignment[..<dot])
            if members[key] == nil { order.append(key) }
            members[key, default: [:]][String(assignment[assignment.index(after: dot)..<equals])] = String(
                assignment[assignment.index(after: equals)...])
        }
        for key in order { try read(PluginSettingsValues(text: members[key] ?? [:]), for: key, into: &options) }
    }
}
