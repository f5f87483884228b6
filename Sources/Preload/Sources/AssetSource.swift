/// Where bytes come from: the paths a source owns (a scheme such as `mem://` or `https://`),
/// what each is (its size, whether a folder), and its bytes. The engine plans every request
/// against the source that owns its path and knows nothing else of it (Bevy's `AssetSource`
/// and `AssetReader`).
///
/// The disk (``DiskSource``) and the entries of containers (`game.pak#ui/hero.png`, served by
/// ``ContainerPlugin``s) are sources every coordinator has; others are given to it in
/// ``PreloadCoordinator/Configuration/sources``, and PreloadRemote's `RemoteFetcher` is the one
/// for `http://` and `https://` URLs. A path no given source owns is an entry or a file on disk.
///
/// A source may need a step before its files can be read: ``prepare(_:session:)``, which a
/// batch calls once, with all the paths of its own that the caller asked for, before it plans
/// (a URL source downloads them into its cache, reporting bytes and stopping when the batch is
/// cancelled). What it prepares may be a *stand-in*, a local file the batch then plans and loads
/// in the path's place (a URL's cached copy): the result keeps the path the caller named
/// (``AssetRequest/origin``), and what the file names beside itself (an atlas's page) is asked
/// of the source beside the path again.
///
/// A folder request (``AssetRequest/folder(_:name:options:)``) for a path a source owns is a
/// question to that source, never a walk of the disk: a batch loads the files its
/// ``files(under:)`` lists, in that order, as it loads a folder's files on disk (the disk's
/// answer is ``DiskSource``'s walk; a container's folder, `game.pak#ui`, its plugin's entries).
/// A source that lists no folders (the default; URLs over HTTP) fails the folder request with
/// ``AssetError/Category/unsupported``, naming the folder and the source; nothing is loaded from
/// it and nothing is fetched.
///
/// A source serving files from memory, folders included:
///
/// ```swift
/// import Preload
///
/// struct MemorySource: AssetSource {
///     let files: [String: [UInt8]]
///
///     func owns(_ path: String) -> Bool { path.hasPrefix("mem://") }
///
///     func files(under folder: String) throws -> [String] {
///         let prefix = folder.hasSuffix("/") ? folder : folder + "/"
///         let names = files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
///         guard !names.isEmpty else { throw AssetError(path: folder, category: .fileNotFound, reason: "no such folder") }
///         return names.sorted()
///     }
///
///     func facts(of path: String) throws(AssetError) -> FileFacts {
///         guard let bytes = files[path] else { throw AssetError(path: path, category: .fileNotFound, reason: "no such file") }
///         return FileFacts(sourcePath: path, size: Int64(bytes.count))
///     }
///
///     func read(
///         _ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
///     ) throws -> AssetBytes {
///         guard let bytes = files[path] else { throw AssetError(path: path, category: .fileNotFound, reason: "no such file") }
///         return AssetBytes(bytes)
///     }
/// }
/// ```
public protocol AssetSource: Sendable {
    /// Whether `path` is this source's (checked for every request of a batch: keep it cheap, a
    /// prefix). The first source in ``PreloadCoordinator/Configuration/sources`` that owns a
    /// path serves it.
    func owns(_ path: String) -> Bool

    /// Makes `files` ready to be read, returning for each, in the same order, what came of it or
    /// the error that names its path. Blocks until every one is done or failed; reports bytes to
    /// `session` as they come, and stops soon after the session is cancelled (what is not done
    /// then fails). The default has nothing to do: each file is read where it is.
    func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>]

    /// What `path` is: its size (what loading it costs, its share of progress), whether it is a
    /// folder, and its identity (``FileFacts/init(sourcePath:size:modified:isDirectory:)``).
    /// Throws ``AssetError/Category/fileNotFound`` for a path it does not have.
    func facts(of path: String) throws(AssetError) -> FileFacts

    /// The bytes of `path`, refusing more than `limit` (``AssetError/Category/limitExceeded``);
    /// checks `isCancelled` and reports the fraction read to `progress` as it goes, if reading is
    /// long. Large files belong in `memory`
    /// (``AssetBytes/init(unsafeUninitializedCapacity:memory:initializingWith:)``).
    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes

    /// The first `count` bytes of `path` (fewer if it is shorter), for telling its kind by its
    /// content. The default reads the whole file.
    func prefix(_ path: String, count: Int) throws -> [UInt8]

    /// The files below `folder`, as paths relative to it with `/` separators, sorted: what a
    /// folder request for `folder` loads (hidden files, a name starting with `.` in any folder,
    /// are left out whatever the source says), and what a plugin that reads a folder (a sprite
    /// folder) reads. Throws ``AssetError/Category/fileNotFound`` for a folder it does not have
    /// (an empty list is an empty folder). The default lists none: it throws
    /// ``AssetError/Category/unsupported``, naming `folder` and the source (a batch fails the
    /// folder request with it, rather than loading nothing or walking the disk).
    func files(under folder: String) throws -> [String]
}

extension AssetSource {
    /// Nothing to prepare: each file is read where it is (no stand-in, no transfer).
    public func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>] {
        files.map { _ in .success(PreparedFile()) }
    }

    /// The first `count` bytes of the whole file ``read(_:limit:memory:isCancelled:progress:)`` gives.
    public func prefix(_ path: String, count: Int) throws -> [UInt8] {
        Array(try read(path, limit: .max, memory: .shared, isCancelled: { false }, progress: { _ in }).prefix(count))
    }

    /// Lists no folder: throws ``AssetError/Category/unsupported``, naming `folder` and the source.
    public func files(under folder: String) throws -> [String] {
        throw AssetError.folderNotListed(folder, by: self)
    }
}

extension AssetError {
    /// For a folder request (or a plugin's folder) whose source lists no folders: it fails by
    /// the folder's path, naming the source, rather than loading nothing.
    static func folderNotListed(_ folder: String, by source: some AssetSource) -> AssetError {
        AssetError(
            path: folder, category: .unsupported,
            reason: "cannot list a folder of \(type(of: source)): the source lists no folders; request its files by name")
    }
}

/// One file of a source that a batch needs prepared (``AssetSource/prepare(_:session:)``): its
/// path, without the `#entry` that names an entry inside it, and what it is promised to be.
public struct SourceFile: Sendable, Hashable {
    /// The path, as the request named it (up to its `#`).
    public var path: String
    /// The size and checksum a manifest or catalog promised for it (a request's
    /// ``ExpectedContents`` option), to check while it is prepared.
    public var expected: ExpectedContents

    /// The file at `path`, expected to be `expected`.
    public init(path: String, expected: ExpectedContents = ExpectedContents()) {
        self.path = path
        self.expected = expected
    }
}

/// What preparing one file of a source gave (``AssetSource/prepare(_:session:)``).
public struct PreparedFile: Sendable, Hashable {
    /// A local file that stands in for the path (a URL's copy in a cache), which the batch plans
    /// and loads in its place; `nil` when the source reads the path itself.
    public var standIn: String?
    /// How its bytes arrived, for the report (``PreloadReport/transfers``); `nil` when nothing
    /// was transferred.
    public var transfer: AssetTransfer?
    /// What the file is (its size and SHA-256, where the source knows them): a request for the
    /// same path that promised other bytes fails, though another request's promise prepared it.
    public var contents: ExpectedContents

    /// A prepared file, read through `standIn` when there is one, brought by `transfer`.
    public init(standIn: String? = nil, transfer: AssetTransfer? = nil, contents: ExpectedContents = ExpectedContents()) {
        self.standIn = standIn
        self.transfer = transfer
        self.contents = contents
    }
}
