import ArgumentParser
import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadGPU
import PreloadManifest
import PreloadPNG

/// `preload bake SOURCES -o FILE` and `preload bake check FILE [SOURCES]`.
struct BakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake",
        abstract: "Bake assets into one sealed pack of ready-to-upload textures (docs/bake-format.md), or check one against its sources.",
        discussion: """
            `preload bake DIR|FILES... [--manifest FILE] -o level.bake` loads the sources as \
            `preload` does (every plugin, every atlas dialect, packs, manifests) and writes what \
            loaded: textures as RGBA rows, atlases as their pages and frame table, data files as \
            their bytes, each under the store name loading gave it. `preload level.bake` (or a \
            request for the file from code) then loads the same names by mapping the file: no \
            decoding, no copy. `preload bake check level.bake [SOURCES]` exits 1 naming each \
            entry whose source changed or is gone, and each source the pack lacks.
            """,
        subcommands: [BakeWriteCommand.self, BakeCheckCommand.self],
        defaultSubcommand: BakeWriteCommand.self)
}

/// `preload bake [write] SOURCES -o FILE`.
struct BakeWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Bake the sources into a pack (the default subcommand of bake).",
        discussion: """
            Entry names are the store names: the paths as given (or the manifest's names), so give \
            paths inside the current folder, or name the folder they are relative to with --root \
            (`--root /build/assets /build/assets/level1` names `level1/hero.png`). The pack is written beside its destination under a \
            temporary name and renamed over it, so a running game that has the old pack mapped \
            keeps reading the old file. Nothing is written when a source fails to load (or, with \
            --strict, loads with a warning).

            With --gpu, each texture's encoding is kept in a bake cache (a folder, by default in \
            the user's cache folder; --bake-cache names another, or a shared one behind it; \
            --no-bake-cache turns it off), keyed by the texture's pixels, the GPU settings and the \
            encoder's version: a bake encodes only what changed, and prints what came from the \
            cache, what was encoded and the time saved. An entry read from a cache is verified by \
            its SHA-256 (one that does not match is named, encoded again and replaced); a cache \
            that cannot be read or written gets one warning and never fails the bake. With \
            --shard I/N, N machines sharing a cache each encode a slice and write no pack; a bake \
            without --shard then assembles the pack from the cache.

            Exit status: 0 when the pack was written, 1 when it was not (a source failed) or a \
            batch outlet failed (an error line each, naming the outlet and the cause), 64 on a \
            usage error.
            """)

    @Argument(help: "Files and directories to bake.")
    var paths: [String] = []

    @Option(name: .shortAndLong, help: "The pack to write (by convention FILE.bake; its folder must exist); -o or --output.")
    var output: String

    @Option(help: "A manifest whose groups to bake (every group, or those of --group).")
    var manifest: String?

    @Option(name: .customLong("group"), help: "A group of --manifest to bake, with the groups it requires (repeatable).")
    var groups: [String] = []

    @Option(
        help:
            "The folder entry names are relative to: of the paths given (a build system's absolute paths), and of a Phaser asset pack's URLs. Default: the current directory."
    )
    var root: String?

    @Flag(help: "Premultiply colour by alpha in every texture (flagged in the pack's header).")
    var premultiply = false

    @Flag(name: .customLong("keep-16-bit"), help: "Keep 16-bit PNGs as RGBA16 instead of RGBA8.")
    var keepSixteenBit = false

    @Flag(help: "Fail the bake when any source loads with a warning (or, with --gpu, any texture falls below --min-psnr).")
    var strict = false

    @OptionGroup var gpuOptions: GPUOptions

    @OptionGroup var cacheOptions: BakeCacheOptions

    @Option(name: .customLong("set"), help: SettingsOption.help)
    var settingAssignments: [String] = []

    /// `--set`'s assignments (``SettingsOption``).
    var settings: SettingsOption { SettingsOption(settingAssignments) }

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Option(name: .shortAndLong, parsing: .unconditional, help: "How many files to decode at once (default: the number of cores).")
    var jobs: Int?  // no default value: the help would state the default a second time, as this machine's count

    func validate() throws {
        try settings.validate()  // first, as when it was an option group, checked as it was decoded
        guard !paths.isEmpty || manifest != nil else {
            if CommandLine.arguments.dropFirst().first == "bake", CommandLine.arguments.count == 2 { try SubcommandNameClash.check("bake") }
            throw ValidationError("give at least one file or directory to bake, or --manifest")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
        let baking = try gpuOptions.textureBaking(strict: strict, jobs: jobs, keepsSixteenBit: keepSixteenBit)
        _ = try cacheOptions.cache(isBaking: baking != nil)
        guard manifest != nil || groups.isEmpty else { throw ValidationError("--group needs --manifest") }
        if let root, !isFolder(root) { throw ValidationError("--root \(root): no such folder") }
        for path in paths { _ = try StoreNames.name(of: path, root: root) }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
        if let manifest, !FileManager.default.fileExists(atPath: manifest) { throw ValidationError("--manifest \(manifest): no such file") }
        guard !isFolder(output) else { throw ValidationError("-o \(output) is a folder; give the pack's file name") }
        try OutputPath.check(output, option: "-o")
    }

    func run() async throws {
        if gpuOptions.gpu != nil { DebugBuildNotice.show() }
        let png = PNGLoader(
            defaults: PNGLoaderSettings(alphaMode: premultiply ? .premultiplied : .straight, keepsSixteenBitSamples: keepSixteenBit))
        let registry = try StandardPlugins.registry(png: png, baked: nil)
        var requests = try LoadCommand.requests(paths: paths, atlases: [], packs: [], root: root, registry: registry)
        var read: (manifest: AssetManifest, requests: [AssetRequest])?
        if let manifest {
            do {
                let manifest = try AssetManifest(contentsOf: manifest, registry: registry, webRoot: root)
                let groupRequests = try manifest.requests(for: groups)
                read = (manifest, groupRequests)
                requests = groupRequests + requests
            } catch {
                printError(error)
                throw ExitCode.validationFailure
            }
        }
        requests = try settings.apply(
            to: requests, registry: registry,
            flags: (premultiply ? ["png.alpha=premultiplied"] : []) + (keepSixteenBit ? ["png.keep16Bit=true"] : []))
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let coordinator = PreloadCoordinator(
            registry: registry, configuration: .init(maxConcurrentLoads: workers, fetcher: RemoteSetup.fetcher(cache: nil)))  // a manifest's URLs
        let started = ContinuousClock.now
        let report = try await coordinator.preload(requests, options: PreloadOptions(storesAssets: false, isStrict: strict))
        for result in report.allResults where !result.warnings.isEmpty && !quiet {
            for warning in result.warnings { printDiagnostic("warning", "\(result.request.path): \(warning)") }
        }
        if let hint = PhaserRootHint.line(for: report, manifest: read?.manifest, requests: read?.requests ?? [], root: root) {
            printDiagnostic("hint", hint)
        }
        do {
            let flags: BakedFormat.Flags = premultiply ? .premultipliedAlpha : []
            let baking = try gpuOptions.textureBaking(strict: strict, jobs: jobs, keepsSixteenBit: keepSixteenBit)
            let cache = try cacheOptions.cache(isBaking: baking != nil)
            let summary: BakeWriter.Summary
            if let baking, let cache, let shard = cacheOptions.slice {
                summary = try await BakeWriter.bakeShard(report, shard, textures: baking, cache: cache)
            } else if let baking {
                summary = try await BakeWriter.write(report, to: output, flags: flags, textures: baking, cache: cache)
            } else {
                summary = try BakeWriter.write(report, to: output, flags: flags)
            }
            for warning in summary.cache?.warnings ?? [] { printDiagnostic("warning", warning) }
            if !quiet {
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                for line in GPUBakeLines.lines(of: summary.gpu, threshold: gpuOptions.minimumPSNR ?? 35) { print(line.visibleInTerminal) }
                for line in BakeCacheLines.lines(of: summary.cache, shard: cacheOptions.slice) { print(line.visibleInTerminal) }
                if cacheOptions.slice == nil {
                    print("\(summary) in \(Summary.seconds(seconds))")
                    for pack in summary.unpackedPacks { print("  \(pack): baked as its entries (PACK#ENTRY names)") }
                }
                for line in Summary.skippedLines(of: report) { print(line.visibleInTerminal) }
            }
        } catch {
            // One line each: the headline, then each source that failed (written out, a newline
            // in a multi-line message would print as `\n`).
            for line in "\(error)".split(separator: "\n") { printError(line.trimmingCharacters(in: .whitespaces)) }
            throw ExitCode(1)
        }
        if OutletFailureLines.printed(report) { throw ExitCode(1) }
    }
}

/// `preload bake check FILE [SOURCES]`.
struct BakeCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a baked pack against its sources: exit 0 when every entry is current, 1 naming what is not.",
        discussion: """
            Each entry records its source's size and CRC-32: an entry whose source changed is \
            stale, one whose source is gone is missing. With SOURCES (or --manifest), every asset \
            they hold that the pack lacks is new. Run it from the folder the pack was baked in: \
            sources are named as they were given to bake.

            With the --gpu options the pack was baked with (a pack does not record them), each \
            stale GPU texture is loaded again and looked up in the bake cache (--bake-cache, by \
            default the local one) under the key a bake gives it: one the cache holds (a source \
            saved again with the same pixels, or baked already on another machine) is marked \
            `in the bake cache: a re-bake encodes nothing`. It is still stale: the check fails.
            """)

    @Argument(help: "The baked pack.")
    var pack: String

    @Argument(help: "The files and directories it was baked from, to find new ones.")
    var paths: [String] = []

    @Option(help: "The manifest it was baked from, to find new entries.")
    var manifest: String?

    @Option(name: .customLong("group"), help: "Groups of --manifest (default: every group).")
    var groups: [String] = []

    @Option(help: "The folder the entry names are relative to, as given to bake (paths and a Phaser asset pack's URLs).")
    var root: String?

    @OptionGroup var gpuOptions: GPUOptions

    @Option(
        name: .customLong("bake-cache"),
        help: ArgumentHelp(
            "With --gpu: the bake cache to look stale textures up in: a folder (default $XDG_CACHE_HOME/preload/bake, else ~/.cache/preload/bake) or a shared cache's URL behind it. Repeatable: one folder, one URL.",
            valueName: "DIR|URL"))
    var bakeCache: [String] = []

    /// The texture baking and the cache `--gpu` and `--bake-cache` name, or `nil` without `--gpu`.
    func cacheLookup() throws -> (BakeWriter.TextureBaking, BakeCache)? {
        let baking = try gpuOptions.textureBaking(strict: false, jobs: nil)
        let cache = try BakeCacheOptions.parse(bakeCache.flatMap { ["--bake-cache", $0] }).cache(isBaking: baking != nil)
        guard let baking, let cache else { return nil }
        return (baking, cache)
    }

    func validate() throws {
        guard FileManager.default.fileExists(atPath: pack) else { throw ValidationError("no such file: \(pack)") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
        for path in paths { _ = try StoreNames.name(of: path, root: root) }
        if let manifest, !FileManager.default.fileExists(atPath: manifest) { throw ValidationError("--manifest \(manifest): no such file") }
        _ = try cacheLookup()
    }

    func run() async throws {
        let index: BakedIndex
        do {
            let mapping = try FileMapping(path: pack)
            index = try mapping.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        } catch {
            printError(AssetError(path: pack, wrapping: error))
            throw ExitCode(1)
        }
        var sources: [AssetRequest] = []
        if !paths.isEmpty || manifest != nil {
            let registry = try StandardPlugins.registry(png: PNGLoader(), baked: nil)
            let given = try LoadCommand.requests(paths: paths, atlases: [], packs: [], root: root, registry: registry)
            sources = registry.expandingFolders(given)
            if let manifest {
                do {
                    sources += try AssetManifest(contentsOf: manifest, registry: registry, webRoot: root).requests(
                        for: groups)
                } catch {
                    printError(error)
                    throw ExitCode.validationFailure
                }
            }
        }
        var check = BakeCheck(index: index, sources: sources)
        if let (baking, cache) = try cacheLookup() {
            let registry = try StandardPlugins.registry(png: PNGLoader(), baked: nil)
            await check.lookUpStale(in: cache, baking: baking, coordinator: PreloadCoordinator(registry: registry))
        }
        for line in check.problems { print(line.visibleInTerminal) }
        print(check.headline(pack: pack).visibleInTerminal)
        if !check.problems.isEmpty { throw ExitCode(1) }
    }
}
