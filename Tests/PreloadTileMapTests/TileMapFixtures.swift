import Foundation
import Preload
import PreloadPNG
import PreloadTestSupport
import PreloadTileMap

/// The maps `Fixtures/make_fixtures.py` wrote (each TMX, and Tiled 1.8.2's own JSON export of
/// it), and the colour it painted each tile of its tileset images (`Fixtures/expected.json`).
enum TileMapFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    /// The TMX fixtures' names, without extension.
    static let maps = [
        "encoding-csv", "encoding-xml", "encoding-base64", "encoding-zlib", "encoding-gzip", "encoding-zstd", "infinite-csv", "infinite-zlib",
        "features", "isometric", "staggered", "hexagonal",
    ]

    static func path(_ name: String) -> String { folder + "/" + name }

    /// One tileset image as the script painted it: its size and each tile's colour.
    struct Sheet: Decodable, Sendable {
        let size: [Int]
        let colours: [String: [UInt8]]
    }

    static let sheets: [String: Sheet] = {
        let data = try! Data(contentsOf: URL(fileURLWithPath: path("expected.json")))
        return try! JSONDecoder().decode([String: Sheet].self, from: data)
    }()

    /// Loads `paths` with the PNG and map plugins (and the pack plugin, for archives).
    static func load(_ paths: [String], plugins: [any LoaderPlugin] = []) async throws -> (PreloadReport, PreloadCoordinator) {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), TileMapLoader()] + plugins)
        let report = try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
        return (report, coordinator)
    }

    /// The map at `path`, loaded alone; fails the test with the report's errors if it does not load.
    static func map(_ path: String) async throws -> TileMap {
        let (report, coordinator) = try await load([path])
        guard let map = coordinator.assets.asset(atPath: path) as? TileMap else { throw Failure(report: report) }
        return map
    }

    /// The error a request for `path` failed with (nil if it loaded).
    static func error(loading path: String, plugins: [any LoaderPlugin] = []) async throws -> AssetError? {
        let (report, _) = try await load([path], plugins: plugins)
        return report.errors.first
    }

    struct Failure: Error, CustomStringConvertible {
        let report: PreloadReport
        var description: String { "the map did not load: \(report.errors)" }
    }
}
