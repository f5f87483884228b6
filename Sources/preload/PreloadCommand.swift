import ArgumentParser
import Foundation
import Preload
import PreloadPNG

/// `preload [PATH ...]`: loads every file the plugins claim, reports what loaded and what did not.
@main
struct PreloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preload",
        abstract: "Preload game assets: decode every file a loader plugin claims and report the result.",
        discussion: """
            Directories are walked recursively (hidden files are ignored). Each file goes to the \
            plugin that claims it, by extension or by content; files no plugin claims are skipped \
            and counted, not errors.

            Exit status: 0 when everything requested loaded, 1 when any asset failed, 64 on a \
            usage error (unknown option, a path that does not exist).
            """)

    @Argument(help: "Files and directories to load.")
    var paths: [String] = []

    @Option(name: .shortAndLong, help: "How many files to decode at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Print one JSON document describing every asset on stdout.")
    var json = false

    @Flag(help: "Include the SHA-256 of each texture's decoded pixels (rows top to bottom, no padding).")
    var checksum = false

    @Flag(help: "Stop at the first failure and cancel the rest.")
    var failFast = false

    @Flag(name: .shortAndLong, help: "No progress bar and no summary; failures still go to stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "List every asset in the summary.")
    var verbose = false

    @Flag(name: .customLong("keep-16-bit"), help: "Decode 16-bit PNGs to RGBA16 instead of RGBA8.")
    var keepSixteenBit = false

    @Flag(help: "Premultiply colour by alpha.")
    var premultiply = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one file or directory to load") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
    }

    func run() async throws {
        let png = PNGLoader(defaults: PNGDecodeOptions(
            alphaMode: premultiply ? .premultiplied : .straight, keepsSixteenBitSamples: keepSixteenBit))
        let registry = try PluginRegistry([png])
        let discovery = AssetDiscovery(registry: registry)
        let found = try discovery.collect(paths)

        let coordinator = PreloadCoordinator(registry: registry, configuration: .init(maxConcurrentLoads: jobs))
        let bar = quiet ? nil : ProgressBar.onTerminal()
        let options = PreloadOptions(failurePolicy: failFast ? .failFast : .collectAll, storesAssets: false)
        var hooks = PreloadHooks()
        if let bar { hooks.onProgress = { bar.draw($0) } }
        let report = try await coordinator.preload(found.requests, options: options, hooks: hooks)
        bar?.clear()

        let digests = checksum ? TextureDigests.compute(for: report) : [:]
        if json {
            let document = JSONDocument(report: report, registry: registry, skipped: found.skipped, digests: digests)
            FileHandle.standardOutput.write(try document.encoded() + Data("\n".utf8))
        } else if !quiet {
            print(Summary(report: report, skipped: found.skipped, digests: digests, verbose: verbose).text)
        }
        if quiet || json {
            for error in report.errors { FileHandle.standardError.write(Data("error: \(error)\n".utf8)) }
        }
        if !report.failed.isEmpty { throw ExitCode(1) }
    }
}
