/// The source of URLs for a coordinator given no fetcher: it owns `http://` and `https://`
/// paths so that they fail naming their URL and what to do (``AssetError/Category/download``),
/// not as missing files on disk.
struct NoFetcher: AssetSource {
    func owns(_ path: String) -> Bool { AssetPath.isRemote(path) }

    func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>] {
        files.map { .failure(Self.refusal($0.path)) }
    }

    func facts(of path: String) throws(AssetError) -> FileFacts { throw Self.refusal(path) }

    func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        throw Self.refusal(path)
    }

    /// A folder of URLs is refused as a URL is: the coordinator has no fetcher.
    func files(under folder: String) throws -> [String] { throw Self.refusal(folder) }

    private static func refusal(_ url: String) -> AssetError {
        AssetError(
            path: url, category: .download,
            reason: "is a remote URL, and the coordinator has no fetcher (give it PreloadRemote's RemoteFetcher: "
                + "PreloadCoordinator.Configuration(fetcher:))")
    }
}
