import ArgumentParser
import Foundation
import PreloadAuthoring
import PreloadRemote

/// `--bake-cache DIR|URL`, `--no-bake-cache` and `--shard I/N`: where `preload bake --gpu` keeps
/// and finds GPU-encoded textures (`BakeCache`), and which slice of them a shard encodes.
struct BakeCacheOptions: ParsableArguments {
    @Option(
        name: .customLong("bake-cache"),
        help: ArgumentHelp(
            "With --gpu: where encoded textures are cached, so that a bake encodes only what changed: a folder (by default $XDG_CACHE_HOME/preload/bake, else ~/.cache/preload/bake) or a shared cache's URL (a Bazel remote cache over http(s)://, credentials from the URL, ~/.netrc or $PRELOAD_BAKE_CACHE_HEADER; or file://PATH; the local folder stays in front of it). Repeatable: one folder, one URL.",
            valueName: "DIR|URL"))
    var locations: [String] = []

    @Flag(name: .customLong("no-bake-cache"), help: "With --gpu: encode every texture, neither reading nor filling a bake cache.")
    var isOff = false

    @Option(
        help: ArgumentHelp(
            "With --gpu: encode slice I of N (a stable split by cache key) into the bake cache and write no pack; once every slice is in, a bake without --shard assembles the pack from the cache.",
            valueName: "I/N"))
    var shard: String?

    /// The slice `--shard` names, if any.
    var slice: BakeShard? { shard.flatMap { BakeShard($0) } }

    /// The cache the options name (the default folder unless `--no-bake-cache`), or `nil`.
    /// Throws a `ValidationError` for options that mean nothing together or with `isBaking`
    /// (whether textures are GPU-encoded at all).
    func cache(isBaking: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> BakeCache? {
        if let shard, BakeShard(shard) == nil { throw ValidationError("--shard must be I/N with 1 <= I <= N (2/4), not \(shard)") }
        guard isBaking else {
            if !locations.isEmpty || isOff || shard != nil {
                throw ValidationError("--bake-cache, --no-bake-cache and --shard concern GPU encoding: they need --gpu (or --mips)")
            }
            return nil
        }
        if isOff {
            guard locations.isEmpty else { throw ValidationError("--no-bake-cache: give it or --bake-cache, not both") }
            guard shard == nil else { throw ValidationError("--shard encodes into the bake cache: it cannot go with --no-bake-cache") }
            return nil
        }
        let urls = locations.filter { $0.contains("://") }, folders = locations.filter { !$0.contains("://") }
        guard urls.count <= 1, folders.count <= 1 else { throw ValidationError("--bake-cache: give one folder and one URL at most") }
        let folder = folders.first ?? LocalBakeCache.defaultFolder(environment: environment)
        return BakeCache(local: folder.map(LocalBakeCache.init(folder:)), shared: try urls.first.map(Self.sharedStore(url:)))
    }

    /// The shared store at `url`: an `http(s)://` URL is a Bazel remote cache (credentials from
    /// the URL, `~/.netrc` or `PRELOAD_BAKE_CACHE_HEADER`, never shown), a `file://` URL a folder
    /// (a network mount).
    static func sharedStore(url: String) throws -> any BakeCacheStore {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            throw ValidationError("--bake-cache \(url) is not a URL")
        }
        switch scheme {
        case "file": return LocalBakeCache(folder: parsed.path)
        case "http", "https":
            do {
                return RemoteBakeCacheStore(remote: try BazelRemoteCache(url: url))
            } catch {
                throw ValidationError("--bake-cache: \(error)")
            }
        default: throw ValidationError("--bake-cache \(url): a shared cache is a file:// or http(s):// URL, not \(scheme)://")
        }
    }
}
