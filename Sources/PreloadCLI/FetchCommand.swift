import ArgumentParser
import Foundation
import Preload
import PreloadAuthoring
import PreloadRemote

/// `preload fetch CATALOG|URL [--group G] [--cache DIR] [--stall-timeout SECONDS]`: brings a catalog's files (or some of
/// its groups) up to date in the cache, or one remote file that is not a catalog; prints what
/// moved, and how (resumed, restarted, retried).
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Bring the files of a catalog (or some of its groups), or one remote file, up to date in the download cache.",
        discussion: """
            CATALOG is a catalog file (`preload catalog` writes one) or its http:// or https:// \
            URL; any other URL is a file to bring into the cache as it is. A URL is fetched \
            first (revalidated through the cache); it is a catalog when its content is a JSON \
            object whose "format" is "preload-catalog", and then its files are fetched. Only files \
            whose bytes the cache does not hold transfer; each is checked against its size and \
            SHA-256 while it streams. Prints a line per file (new, resumed at a byte, restarted \
            and why, unchanged, or FAIL with the cause; the retries it took) and the bytes that \
            came from the network. Ctrl-C (or SIGTERM) stops the downloads and keeps what \
            arrived: the next run resumes it (with the server's validator, or the promised SHA-256), \
            or starts over and says why. Exit status: 0 when every file is in the cache, 1 \
            otherwise, 130 (143) when interrupted.
            """)

    @Argument(help: ArgumentHelp("The catalog (a file, or an http:// or https:// URL), or the URL of one file to fetch.", valueName: "catalog|url"))
    var catalog: String

    @Option(name: .customLong("group"), help: "A group of the catalog to bring up to date (repeatable; default: every file).")
    var groups: [String] = []

    @Option(help: "The download cache (default: $XDG_CACHE_HOME/preload, or ~/.cache/preload).") var cache: String?

    @Option(
        name: .customLong("stall-timeout"),
        help: ArgumentHelp("Cut and retry a transfer that receives nothing for this many seconds (default: 15).", valueName: "seconds"))
    var stallTimeout: Double?

    @Flag(name: .shortAndLong, help: "Only failures, on stderr.") var quiet = false

    func validate() throws {
        if let stallTimeout, !(stallTimeout > 0 && stallTimeout <= 86_400) {
            throw ValidationError("--stall-timeout must be more than 0 and at most 86400 seconds, not \(stallTimeout)")
        }
    }

    func run() async throws {
        let fetcher: RemoteFetcher
        do {
            var retries = RetryPolicy()
            if let stallTimeout { retries.stallTimeout = .milliseconds(Int64((stallTimeout * 1000).rounded(.up))) }
            fetcher = RemoteFetcher(
                cache: try RemoteCache(folder: cache ?? RemoteCache.defaultFolder), configuration: RemoteFetcher.Configuration(retries: retries))
        } catch {
            printError(error)
            throw ExitCode.failure
        }
        let session = SourceSession()
        let signals = InterruptSignals { session.cancel() }
        defer { signals.stop() }
        let started = ContinuousClock.now
        let (paths, results) = try await fetchAll(with: fetcher, session: session)
        var lines: [String] = []
        var network: Int64 = 0
        var failed = 0
        for (path, result) in zip(paths, results) {
            switch result {
            case .success(let fetched):
                network += fetched.transfer.networkBytes
                lines.append("  " + Self.line(path, fetched.transfer))
            case .failure(let error):
                failed += 1
                lines.append("  FAIL      \(path): \(error.reason)")
                if quiet { printError("\(path): \(error.reason)") }
            }
        }
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        if !quiet {
            let scope = groups.isEmpty ? "" : " (\(groups.count == 1 ? "group" : "groups") \(groups.joined(separator: ", ")))"
            let headline =
                failed > 0
                ? "FAILED \(failed) of \(counted(paths.count, "file")); fetched \(paths.count - failed)" : "Fetched \(counted(paths.count, "file"))"
            print(headline + "\(scope) in \(Summary.seconds(elapsed)): \(Summary.bytes(Int(network))) from the network")
            for line in lines { print(line) }
        }
        if let number = signals.signalNumber {
            printError("interrupted: what arrived is kept in the cache, and the next run resumes it where it can (or says why not)")
            throw ExitCode(128 + number)
        }
        if failed > 0 { throw ExitCode.failure }
    }

    /// Each file to fetch (its path as the lines name it) and what came of it: the catalog's
    /// files (of ``groups``), or the one file a URL that is not a catalog names.
    private func fetchAll(
        with fetcher: RemoteFetcher, session: SourceSession
    ) async throws -> ([String], [Result<FetchedFile, AssetError>]) {
        var path = self.catalog
        if AssetPath.isRemote(self.catalog) {
            let result = await fetcher.fetch([RemoteFile(url: self.catalog)], session: session)[0]
            guard case .success(let fetched) = result, RemoteCatalog.isCatalog(atPath: fetched.path) else {
                // Not a catalog (or not fetched): the file itself is what was asked for.
                guard groups.isEmpty else {
                    if case .failure(let error) = result {
                        printError(error)
                    } else {
                        printError("\(self.catalog): --group needs a catalog; this is a file")
                    }
                    throw ExitCode.failure
                }
                return ([self.catalog], [result])
            }
            path = fetched.path
        }
        let catalog: RemoteCatalog
        do {
            catalog = try RemoteCatalog(contentsOf: path)
        } catch let error as RemoteCatalogError {
            printError(AssetPath.isRemote(self.catalog) ? "\(self.catalog): \(error.reason)" : error.description)
            throw ExitCode.failure
        }
        let unknown = groups.filter { !catalog.groups.contains($0) }
        guard unknown.isEmpty else {
            printError(
                "\(self.catalog): no group \(unknown.map { "'\($0)'" }.joined(separator: ", ")) (it has: \(catalog.groups.joined(separator: ", ")))")
            throw ExitCode.validationFailure
        }
        let files = catalog.files(groups: groups)
        return (files.map(\.path), await fetcher.update(catalog, groups: groups, session: session))
    }

    /// A file's line: what happened (`new`, `resumed`, `restarted`, `patched`, `unchanged`), its
    /// path, and for a transfer its bytes from the network, where it resumed, why it restarted,
    /// its retries; for a patched pack, its bytes from the server and from its cached version,
    /// and its entries that came as deltas.
    static func line(_ path: String, _ transfer: AssetTransfer) -> String {
        // Nothing from the network: the cache had it (a 304 revalidated it, or no request at all).
        guard transfer.networkBytes > 0 else { return "unchanged \(path)" + (transfer.attempts > 0 ? " (revalidated)" : "") }
        if let old = transfer.patchedFrom {  // a baked pack patched from its cached version: what moved, from where, what it saved
            let saved = Double(transfer.cacheBytes) / Double(max(transfer.networkBytes + transfer.cacheBytes, 1))
            return "patched   \(path) (\(Summary.bytes(Int(transfer.networkBytes))) from the server in \(counted(transfer.attempts, "request")), "
                + "\(Summary.bytes(Int(transfer.cacheBytes))) from the cached version \(old.prefix(12))"
                + (transfer.deltas.map {
                    "; \(counted($0.entries, "entry", plural: "entries")) as deltas, \(Summary.bytes(Int($0.bytes))) instead of \(Summary.bytes(Int($0.entryBytes)))"
                } ?? "")
                + ": \(Int((saved * 100).rounded(.down)))% saved)"
        }
        let what = transfer.restart != nil ? "restarted" : transfer.resumedAt != nil || transfer.cacheBytes > 0 ? "resumed" : "new"
        var details = [Summary.bytes(Int(transfer.networkBytes))]
        if let resumedAt = transfer.resumedAt { details.append("resumed at \(Summary.bytes(Int(resumedAt))) (byte \(resumedAt))") }
        if let restart = transfer.restart { details.append("restarted: \(restart.rawValue)") }
        if transfer.retries > 0 { details.append(counted(transfer.retries, "retry", plural: "retries")) }
        return what.padding(toLength: 9, withPad: " ", startingAt: 0) + " \(path) (\(details.joined(separator: "; ")))"
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
