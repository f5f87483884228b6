import Foundation
import Preload
import PreloadConcurrency
import PreloadRemote

/// `--cache DIR` and the fetcher every loading subcommand gives its coordinator: requests may
/// name `http://` and `https://` URLs (arguments, manifests, Phaser packs, an atlas's pages),
/// fetched into the cache (by default ``RemoteCache/defaultFolder``), which is made only when
/// the first remote file is fetched.
enum RemoteSetup {
    /// The fetcher for `--cache` (`nil`: the default folder).
    static func fetcher(cache: String?) -> any RemoteFetching {
        OnFirstFetch(folder: cache ?? RemoteCache.defaultFolder)
    }

    /// A ``RemoteFetcher`` made when first asked to fetch; a cache that cannot be made fails
    /// every file it was asked for, naming the folder.
    private final class OnFirstFetch: RemoteFetching {
        let folder: String
        /// The fetcher, or why the cache could not be made; `nil` until the first fetch.
        private let made = Locked<Result<RemoteFetcher, AssetError>?>(nil)

        init(folder: String) {
            self.folder = folder
        }

        func fetch(_ files: [RemoteFile], session: SourceSession) -> [Result<FetchedFile, AssetError>] {
            let fetcher = made.withLock { made -> Result<RemoteFetcher, AssetError> in
                if let made { return made }
                let result: Result<RemoteFetcher, AssetError>
                do {
                    result = .success(RemoteFetcher(cache: try RemoteCache(folder: folder)))
                } catch {
                    result = .failure(AssetError(path: folder, category: .download, reason: "\(error)"))
                }
                made = result
                return result
            }
            switch fetcher {
            case .success(let fetcher): return fetcher.fetch(files, session: session)
            case .failure(let error):
                return files.map { .failure(AssetError(path: $0.url, category: .download, reason: error.reason, underlying: error)) }
            }
        }
    }
}
