import Foundation
import Preload  // public API only, no `@_spi` and no `@testable`: what a third party's plugin sees
import PreloadTestSupport
import Testing

/// A container a third party might write: `TINYPACK\n`, then for each entry a line `NAME SIZE\n`
/// followed by SIZE bytes. It keys nothing by the container's facts, but records them.
private struct TinyPackLoader: ContainerPlugin {
    var identifier: String { "tinypack" }
    var assetKind: AssetKind { "data" }
    var fileExtensions: Set<String> { ["tinypack"] }
    var headerLength: Int { 9 }
    /// The container facts planning handed to `entrySize(_:in:containerFacts:)`.
    let containerFacts = Recorder<FileFacts>()

    static func pack(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        entries.reduce(Array("TINYPACK\n".utf8)) { $0 + Array("\($1.name) \($1.bytes.count)\n".utf8) + $1.bytes }
    }

    func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: "TINYPACK\n".utf8) }

    func opensContainer(at path: String, header: [UInt8]) -> Bool { matchesSignature(header) }

    private func entries(in container: String) throws -> [String: [UInt8]] {
        guard let data = FileManager.default.contents(atPath: container) else {
            throw AssetError(path: container, category: .fileNotFound, reason: "no such file")
        }
        var bytes = [UInt8](data).dropFirst(9), entries: [String: [UInt8]] = [:]
        while let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: bytes[..<end], as: UTF8.self).split(separator: " ")
            guard line.count == 2, let size = Int(line[1]), end + 1 + size <= bytes.endIndex else {
                throw AssetError(path: container, category: .corrupt, reason: "a broken entry line")
            }
            entries[String(line[0])] = Array(bytes[(end + 1)..<(end + 1 + size)])
            bytes = bytes[(end + 1 + size)...]
        }
        return entries
    }

    private func entry(_ entry: String, in container: String) throws -> [UInt8] {
        guard let bytes = try entries(in: container)[entry] else {
            throw AssetError(path: "\(container)#\(entry)", category: .fileNotFound, reason: "no such entry")
        }
        return bytes
    }

    func entryNames(in container: String) throws -> [String] { try entries(in: container).keys.sorted() }

    func entrySize(_ entry: String, in container: String) throws -> Int64 { Int64(try self.entry(entry, in: container).count) }

    func entrySize(_ entry: String, in container: String, containerFacts: FileFacts) throws -> Int64 {
        self.containerFacts.append(containerFacts)
        return try entrySize(entry, in: container)
    }

    func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        let bytes = try self.entry(entry, in: container)
        return AssetBytes(unsafeUninitializedCapacity: bytes.count, memory: memory) { buffer, count in
            buffer.copyBytes(from: bytes)
            count = bytes.count
        }
    }
}

/// Pixels as red, green, blue and alpha bytes.
private struct RGBAImage: Asset {
    let width: Int
    let pixels: AssetBytes
    var kind: AssetKind { "image" }
    var byteCount: Int { pixels.count }
}

/// The guide's plugin (*Writing a loader plugin*, "Memory and speed"): `.grey` files whose width is
/// in a file beside them, read through `context.files`, expanded to RGBA in `context.memory`.
private struct GreyLoader: LoaderPlugin {
    var identifier: String { "grey" }
    var assetKind: AssetKind { "image" }
    var fileExtensions: Set<String> { ["grey"] }
    /// What each load's request said of its file: the entry's name, and the container's prefix.
    let seen = Recorder<[String?]>()

    func load(_ context: LoadContext) throws -> any Asset {
        let path = context.request.path
        seen.append([context.request.file.entry, context.request.containerPrefix])
        let grey = try context.readContents()
        let widthFile = try context.files.read(path + ".width", limit: 32, isCancelled: { context.isCancelled })
        guard let width = String(decoding: widthFile.array, as: UTF8.self).split(separator: "\n").first.flatMap({ Int($0) }),
            width > 0, grey.count % width == 0
        else {
            throw AssetError(path: path, category: .corrupt, reason: "no width that divides its \(grey.count) pixels")
        }
        try context.checkCancellation()
        let pixels = AssetBytes(unsafeUninitializedCapacity: grey.count * 4, memory: context.memory) { buffer, count in
            for (index, value) in grey.enumerated() {
                buffer[index * 4] = value
                buffer[index * 4 + 1] = value
                buffer[index * 4 + 2] = value
                buffer[index * 4 + 3] = 255
            }
            count = grey.count * 4
        }
        return RGBAImage(width: width, pixels: pixels)
    }
}

/// A plugin written against the public API alone reads a pack entry, and a file beside it,
/// through `context.files`, and writes its asset into the coordinator's pool through
/// `context.memory`; a third-party container plugin's entries are planned through
/// `entrySize(_:in:containerFacts:)`.
@Suite struct PublicPluginAPITests {
    @Test func aThirdPartyPluginReadsAPackEntryAndWritesPooledMemory() async throws {
        let directory = try TemporaryDirectory()
        let grey = (0..<(32 * 32)).map { UInt8(truncatingIfNeeded: $0) }
        let pack = try directory.write(
            "art.tinypack", TinyPackLoader.pack([("sprites/hero.grey", grey), ("sprites/hero.grey.width", Array("32\n".utf8))]))
        let memory = AssetMemory(configuration: .init(smallestPooledSize: 1024, retainedLimit: 1 << 20, retentionSeconds: 3600))
        let container = TinyPackLoader(), loader = GreyLoader()
        let coordinator = try PreloadCoordinator(plugins: [container, loader], configuration: .init(maxConcurrentLoads: 2, memory: memory))

        let report = try await coordinator.start([AssetRequest(path: "\(pack)#sprites/hero.grey", name: "hero")]).finished()

        #expect(report.everythingLoaded, "\(report.errors)")
        let image = try #require(coordinator.assets.asset(named: "hero", as: RGBAImage.self))
        #expect(image.width == 32 && image.pixels.count == 32 * 32 * 4)
        #expect(Array(image.pixels[(4 * 200)..<(4 * 201)]) == [200, 200, 200, 255])
        #expect(memory.statistics.liveBytes >= 32 * 32 * 4, "the pixels are in the coordinator's pool")
        #expect(loader.seen.all == [["sprites/hero.grey", "\(pack)#"]])
        let facts = try #require(container.containerFacts.all.first)
        let size = try FileManager.default.attributesOfItem(atPath: pack)[.size] as? NSNumber
        #expect(facts.entry == nil && !facts.isDirectory && facts.size == size?.int64Value)
    }

    /// A plugin's own test asks it about one file without a batch: a `PlannedRequest` made with
    /// the public initializer, the file's facts from `AssetFiles`.
    @Test func aPluginIsAskedAboutOneFileWithoutABatch() throws {
        let directory = try TemporaryDirectory()
        let bundle = try directory.write("level.bundle", text: "a.txt\nb.txt")
        let request = PlannedRequest(request: AssetRequest(path: bundle), plugin: "bundle", file: try AssetFiles.local.facts(of: bundle))
        #expect(request.plugin == "bundle" && request.file.size == 11 && request.containerPrefix == nil)
        let dependencies = try BundleLoader(order: Recorder()).dependencies(of: request)
        #expect(dependencies.map(\.path) == [directory.file("a.txt"), directory.file("b.txt")])
    }
}
