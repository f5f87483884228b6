import Foundation
import Preload

/// Loads a file as its raw bytes (a `DataAsset`), when a request asks for it by name: game
/// data, level files, anything without a decoder. Claims no file on its own, so folders still
/// skip what no other plugin loads.
///
/// Two of them are registered side by side: ``raw`` (`"data"`) delivers any file, ``json``
/// (`"json"`) delivers a file only if it parses as JSON, so a cut or hand-broken JSON fails by
/// name at load time instead of in the game. Phaser asset packs' `binary` and `json` entries
/// load with these.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadPack
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), DataFileLoader.raw, DataFileLoader.json])
/// let report = try await coordinator.preload([AssetRequest(path: "levels/1.json", name: "level1", plugin: "json")])
/// ```
public struct DataFileLoader: LoaderPlugin {
    /// What a file must be to load.
    public enum Format: String, Sendable {
        /// Any bytes.
        case raw = "data"
        /// Valid JSON (RFC 8259, a UTF-8 byte-order mark allowed); delivered as its bytes.
        case json
    }

    /// The format this loader checks.
    public let format: Format

    /// A loader for files of `format`.
    public init(format: Format) { self.format = format }

    /// Raw bytes, as the plugin `"data"`.
    public static let raw = DataFileLoader(format: .raw)
    /// JSON checked to parse, as the plugin `"json"`.
    public static let json = DataFileLoader(format: .json)

    public var identifier: String { format.rawValue }
    public var assetKind: AssetKind { .data }
    /// None: this plugin loads only what is asked of it by name.
    public var fileExtensions: Set<String> { [] }

    public func load(_ context: LoadContext) throws -> any Asset {
        let bytes = try context.readContents(reportingProgress: true)
        if format == .json {
            do {
                _ = try bytes.withUnsafeBytes { buffer in
                    let view = Data(
                        bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!), count: buffer.count,
                        deallocator: .none)
                    return try JSONSerialization.jsonObject(with: view, options: [.fragmentsAllowed])
                }
            } catch {
                throw AssetError(
                    path: context.request.path, category: .corrupt, reason: "not valid JSON: " + JSONSyntaxProblem.describe(error, in: bytes.array))
            }
        }
        return DataAsset(bytes: bytes)
    }
}
