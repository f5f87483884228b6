import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A list of the files a server publishes, with the size and SHA-256 of each and the groups it
/// belongs to (a level, a content update): what a game asks to bring up to date, so that only
/// files that changed transfer (``RemoteFetcher/update(_:groups:session:)``), each checked
/// against its hash while it streams. `preload catalog DIR --url BASE -o FILE` writes one for a
/// folder; `preload fetch CATALOG --group G` brings a group up to date.
///
/// The format (JSON; `path` is relative to `base`, with `/` between folders):
///
/// ```json
/// {"format": "preload-catalog", "version": 1, "base": "https://example.com/game/",
///  "files": [{"path": "level3/level3.bake", "size": 1048576, "sha256": "9f86…", "groups": ["level3"]}]}
/// ```
///
/// ```swift
/// import Preload
/// import PreloadRemote
///
/// let catalog = try RemoteCatalog(contentsOf: "catalog.json")
/// let requests = catalog.requests(groups: ["level3"])  // each with its size and SHA-256 to check
/// print(requests.map(\.path))
/// ```
public struct RemoteCatalog: Sendable, Hashable, Codable {
    /// One published file.
    public struct File: Sendable, Hashable, Codable {
        /// Its path below ``RemoteCatalog/base`` (`level3/level3.bake`).
        public var path: String
        /// Its size in bytes.
        public var size: Int64
        /// The SHA-256 of its bytes, lowercase hexadecimal.
        public var sha256: String
        /// The groups it belongs to (none: only "every file" takes it).
        public var groups: [String]

        /// A file at `path` of `size` bytes hashing to `sha256`, in `groups`.
        public init(path: String, size: Int64, sha256: String, groups: [String] = []) {
            self.path = path
            self.size = size
            self.sha256 = sha256.lowercased()
            self.groups = groups
        }

        /// Its promise, for the fetcher to check.
        public var expected: ExpectedContents { ExpectedContents(size: size, sha256: sha256) }
    }

    /// Always "preload-catalog".
    public var format = "preload-catalog"
    /// Its version (1).
    public var version = 1
    /// The URL the paths are below (ends with `/`).
    public var base: String
    /// The files, in path order.
    public var files: [File]

    /// A catalog of `files` published below `base`.
    public init(base: String, files: [File]) {
        self.base = base.hasSuffix("/") ? base : base + "/"
        self.files = files.sorted { $0.path < $1.path }
    }

    /// The catalog in the JSON file at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RemoteCatalogError(path: path, reason: "cannot be read")
        }
        try self.init(json: data, path: path)
    }

    /// The catalog in `json` (named `path` in errors).
    public init(json: Data, path: String = "catalog") throws {
        let decoded: RemoteCatalog
        do {
            decoded = try JSONDecoder().decode(RemoteCatalog.self, from: json)
        } catch DecodingError.keyNotFound(let key, _) {
            throw RemoteCatalogError(
                path: path, reason: "is not a catalog: it has no '\(key.stringValue)' (a catalog has 'format', 'version', 'base' and 'files')")
        } catch {
            throw RemoteCatalogError(path: path, reason: "is not a catalog (JSON with 'format', 'version', 'base' and 'files'): \(error)")
        }
        guard decoded.format == "preload-catalog" else {
            throw RemoteCatalogError(path: path, reason: "its format is \"\(decoded.format)\", not \"preload-catalog\"")
        }
        guard decoded.version == 1 else { throw RemoteCatalogError(path: path, reason: "version \(decoded.version) is not known (1 is)") }
        guard AssetPath.isRemote(decoded.base) else {
            throw RemoteCatalogError(path: path, reason: "its base \(decoded.base) is not an http or https URL")
        }
        var seen = Set<String>()
        for file in decoded.files {
            guard !file.path.isEmpty, !file.path.hasPrefix("/"), !file.path.split(separator: "/").contains(".."), !file.path.contains("#") else {
                throw RemoteCatalogError(path: path, reason: "file path \"\(file.path)\" is not a relative path inside the base")
            }
            guard file.size >= 0, file.sha256.count == 64, file.sha256.allSatisfy(\.isHexDigit) else {
                throw RemoteCatalogError(path: path, reason: "file \(file.path) has no valid size and SHA-256")
            }
            guard seen.insert(file.path).inserted else { throw RemoteCatalogError(path: path, reason: "file \(file.path) is listed twice") }
        }
        self.init(base: decoded.base, files: decoded.files)
    }

    /// Whether the file at `path` is a catalog, by its content: a JSON object whose `"format"` is
    /// `"preload-catalog"` (whatever else it holds: a damaged catalog is still one, and fails by
    /// name when read). Anything else (a pack, an image, other JSON, a file over 256 MiB, which
    /// no catalog reaches) is not. `preload fetch URL` decides by this whether to fetch the
    /// catalog's files or the file itself.
    public static func isCatalog(atPath path: String) -> Bool {
        // Its first bytes first: a pack of a gigabyte is not read whole to learn that it is not JSON.
        let spaces: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        try? handle.close()
        let first = head.first(where: { !spaces.contains($0) })
        guard first == UInt8(ascii: "{") || (first == nil && head.count == 4096) else { return false }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), let size = attributes[.size] as? Int,
            size <= 256 << 20, let data = FileManager.default.contents(atPath: path),
            data.first(where: { !spaces.contains($0) }) == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["format"] as? String == "preload-catalog"
    }

    /// The URL of `file`: ``base`` and its path, each folder's name percent-encoded.
    public func url(of file: File) -> String {
        base
            + file.path.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }
            .joined(separator: "/")
    }

    /// The files of `groups` (every file when `groups` is empty).
    public func files(groups: [String] = []) -> [File] {
        guard !groups.isEmpty else { return files }
        let wanted = Set(groups)
        return files.filter { !wanted.isDisjoint(with: $0.groups) }
    }

    /// Every group a file names, sorted.
    public var groups: [String] { Set(files.flatMap(\.groups)).sorted() }

    /// A request per file of `groups` (every file when empty): its URL, stored under its path
    /// below the base, with its size and SHA-256 to check.
    public func requests(groups: [String] = []) -> [AssetRequest] {
        files(groups: groups).map { file in
            AssetRequest(path: url(of: file), name: file.path, options: AssetOptions().with(ExpectedContents.self, file.expected))
        }
    }

    /// The catalog's JSON (sorted keys, one file a line would be nicer, but this is stable).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A catalog of every regular file below `folder` (hidden files and `PACK.deltas` folders left out), published below
    /// `base`: each file's size and SHA-256 (read in 1 MiB blocks), its group the first folder
    /// of its path (`level3/tiles.bake` is in `level3`; a file at the top is in none). The files
    /// `excluded` (the catalog itself, written into the folder) are left out.
    public static func make(folder: String, base: String, excluding excluded: [String] = []) throws -> RemoteCatalog {
        let left = Set(excluded.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        guard AssetPath.isRemote(base) else { throw RemoteCatalogError(path: base, reason: "is not an http or https URL") }
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw RemoteCatalogError(path: folder, reason: "cannot be listed")
        }
        var files: [File] = []
        while let relative = walker.nextObject() as? String {
            // Hidden files, and the deltas `preload patch` publishes beside a pack (fetched by its updater, never alone).
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") || $0.hasSuffix(".deltas") }) { continue }
            let path = root + "/" + relative
            if left.contains(path) { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw RemoteCatalogError(path: path, reason: "cannot be read (a link that leads nowhere?)")
            }
            if isFolder.boolValue { continue }
            let (size, digest) = try digestOfFile(path)
            let components = relative.split(separator: "/")
            files.append(File(path: relative, size: size, sha256: digest, groups: components.count > 1 ? [String(components[0])] : []))
        }
        return RemoteCatalog(base: base, files: files)
    }

    /// The size and SHA-256 (lowercase hex) of the file at `path`.
    static func digestOfFile(_ path: String) throws -> (Int64, String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw RemoteCatalogError(path: path, reason: "cannot be read") }
        defer { close(descriptor) }
        guard let (hasher, size) = digest(ofTheRestOf: descriptor) else {
            throw RemoteCatalogError(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
        do {
            return (size, try hasher.finalize().hexString)
        } catch {
            throw RemoteCatalogError(path: path, reason: "cannot be hashed: \(error)")
        }
    }
}

/// A catalog that cannot be read, or a folder that cannot be listed into one.
public struct RemoteCatalogError: Error, Sendable, CustomStringConvertible {
    /// The catalog's file (or the folder, or the URL).
    public let path: String
    /// What is wrong.
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
