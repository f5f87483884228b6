import ArgumentParser
import Foundation
import Preload
import PreloadAuthoring
import PreloadRemote

/// `preload fetch CATALOG [--group G] [--cache DIR]`: brings a catalog's files (or some of its
/// groups) up to date in the cache, and prints what moved.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Bring the files of a catalog (or some of its groups) up to date in the download cache.",
        discussion: """
            CATALOG is a catalog file (`preload catalog` writes one) or its http:// or https:// \
            URL (revalidated through the cache). Only files whose bytes the cache does not hold \
            transfer; each is checked against its size and SHA-256 while it streams. Prints a \
            line per file (new, resumed, unchanged, or FAIL with the cause) and the bytes that \
            came from the network. Exit status: 0 when every file is in the cache, 1 otherwise.
            """)

    @Argument(help: "The catalog: a file, or an http:// or https:// URL.") var catalog: String

    @Option(name: .customLong("group"), help: "A group of the catalog to bring up to date (repeatable; default: every file).")
    var groups: [String] = []

    @Option(help: "The download cache (default: $XDG_CACHE_HOME/preload, or ~/.cache/preload).") var cache: String?

    @Flag(name: .shortAndLong, help: "Only failures, on stderr.") var quiet = false

    func run() async throws {
        let fetcher: RemoteFetcher
        do {
            fetcher = RemoteFetcher(cache: try RemoteCache(folder: cache ?? RemoteCache.defaultFolder))
        } catch {
            printError(error)
            throw ExitCode.failure
        }
        let catalog = try await read(self.catalog, with: fetcher)
        let unknown = groups.filter { !catalog.groups.contains($0) }
        guard unknown.isEmpty else {
            printError(
                "\(self.catalog): no group \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (it has: \(catalog.groups.joined(separator: ", ")))")
            throw ExitCode.validationFailure
        }
        let files = catalog.files(groups: groups)
        let started = ContinuousClock.now
        let results = await fetcher.update(catalog, groups: groups)
        var lines: [String] = []
        var network: Int64 = 0
        var failed = 0
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let fetched):
                network += fetched.transfer.networkBytes
                let moved = fetched.transfer.networkBytes > 0 || fetched.transfer.attempts > 0
                let what = !moved ? "unchanged" : fetched.transfer.cacheBytes > 0 ? "resumed" : "new"
                lines.append(
                    "  \(what.padding(toLength: 9, withPad: " ", startingAt: 0)) \(file.path)"
                        + (moved ? " (\(Summary.bytes(Int(fetched.transfer.networkBytes))))" : ""))
            case .failure(let error):
                failed += 1
                lines.append("  FAIL      \(file.path): \(error.reason)")
                if quiet { printError("\(file.path): \(error.reason)") }
            }
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        if !quiet {
            let scope = groups.isEmpty ? "" : " (\(groups.count == 1 ? "group" : "groups") \(groups.joined(separator: ", ")))"
            let headline =
                failed > 0
                ? "FAILED \(failed) of \(counted(files.count, "file")); fetched \(files.count - failed)" : "Fetched \(counted(files.count, "file"))"
            print(headline + "\(scope) in \(Summary.seconds(elapsed)): \(Summary.bytes(Int(network))) from the network")
            for line in lines { print(line) }
        }
        if failed > 0 { throw ExitCode.failure }
    }

    /// The catalog at `source`: a file, or a URL fetched through the cache (revalidated).
    private func read(_ source: String, with fetcher: RemoteFetcher) async throws -> RemoteCatalog {
        var path = source
        if AssetPath.isRemote(source) {
            switch await fetcher.fetch([RemoteFile(url: source)])[0] {
            case .success(let fetched): path = fetched.path
            case .failure(let error):
                printError(error)
                throw ExitCode.failure
            }
        }
        do {
            return try RemoteCatalog(contentsOf: path)
        } catch let error as RemoteCatalogError {
            printError(AssetPath.isRemote(source) ? "\(source): \(error.reason)" : error.description)
            throw ExitCode.failure
        }
    }
}

/// `preload catalog DIR --url BASE -o FILE`: the catalog of a folder a server will publish.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Write the catalog of a folder of files and packs that a server publishes under a URL.",
        discussion: """
            Lists every file below DIR (hidden files left out) with its size and SHA-256; a file's \
            group is the first folder of its path (`level3/level3.bake` is in `level3`). The \
            catalog is written whole or not at all. A game brings a group up to date with \
            RemoteFetcher.update, or `preload fetch FILE --group G`.
            """)

    @Argument(help: "The folder to list.") var folder: String
    @Option(help: "The http:// or https:// URL the folder is published under.") var url: String
    @Option(name: .shortAndLong, help: "The catalog file to write.") var output: String

    func validate() throws {
        guard isFolder(folder) else { throw ValidationError("no such folder: \(folder)") }
        guard AssetPath.isRemote(url) else { throw ValidationError("--url \(url) is not an http:// or https:// URL") }
        try OutputPath.check(output, option: "--output")
    }

    func run() throws {
        let catalog: RemoteCatalog
        do {
            catalog = try RemoteCatalog.make(folder: folder, base: url, excluding: [output])  // not the catalog itself
        } catch {
            printError(error)
            throw ExitCode.failure
        }
        let file = try AtomicFile(path: output)
        try file.write(Array(try catalog.json()) + Array("\n".utf8))
        try file.commit()
        let bytes = catalog.files.reduce(Int64(0)) { $0 + $1.size }
        print(
            "Wrote \(output): \(counted(catalog.files.count, "file")) (\(Summary.bytes(Int(bytes)))) in \(counted(catalog.groups.count, "group")) below \(catalog.base)"
        )
    }
}
