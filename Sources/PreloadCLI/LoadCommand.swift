import ArgumentParser
import Foundation
import Preload
import PreloadAudio
import PreloadBaked
import PreloadPNG
import PreloadManifest
import PreloadPack
import PreloadRemote

/// `preload [PATH ...]`: loads every file the plugins claim, reports what loaded and what did not.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load files, folders, atlases and packs, and report what loaded (the default subcommand).",
        discussion: """
            Directories are walked recursively (hidden files are ignored). Each file goes to the \
            plugin that claims it, by extension or by content; files in a folder that no plugin \
            claims are skipped and counted, not errors (a file named itself that no plugin claims \
            fails). Folders named `*.atlas` (sprite folders) and `*.atlasc` \
            (compiled SpriteKit atlases) are atlases. `.pak`, `.zip` and `.gz` files are packs: \
            every entry loads by the plugin that claims it, from inside the pack (a PNG becomes \
            a texture, an atlas finds its pages beside it), the rest as raw data. \
            `--manifest FILE` loads groups of a manifest (`--group NAME`, with the groups it \
            requires; every group without one), named as the manifest names them. A Phaser \
            asset pack is a manifest too: its sections are groups, its URLs are relative to the \
            web root (`--root DIR`, default the current directory), and entries of types without \
            a plugin (audio, fonts, ...) are skipped and counted.

            Exit status: 0 when everything requested loaded, 1 when any asset or pack entry \
            failed or a batch outlet failed (an error line each, naming the outlet and the \
            cause), 64 on a usage error (unknown option, a path or manifest that does not exist, a \
            manifest that does not read or has no such group).
            """)

    @Argument(help: "Files and directories to load.")
    var paths: [String] = []

    @Option(name: .customLong("atlas"), help: "An atlas to load: a sprite folder, a .json, a .atlas file or an .atlasc folder (repeatable).")
    var atlases: [String] = []

    @Option(name: .customLong("pack"), help: "A pack to load: a .pak, .zip or .gz file (repeatable).")
    var packs: [String] = []

    @Option(help: "A manifest (groups of assets) to load groups of; see --group.")
    var manifest: String?

    @Option(name: .customLong("group"), help: "A group of --manifest to load, with the groups it requires (repeatable; default: every group).")
    var groups: [String] = []

    @Option(
        help:
            "The folder store names are relative to: of the paths given, and of a Phaser asset pack's URLs (its web root, as the page running the game sees it). Default: the current directory."
    )
    var root: String?

    @Option(name: .customLong("max-entry-mib"), parsing: .unconditional, help: "The most one pack entry may inflate to, in MiB.")
    var maxEntryMiB: Int = PackLimits().maxEntryBytes >> 20

    @Option(parsing: .unconditional, help: "The most a pack entry may grow when inflated (raw over stored; checked past 16 MiB).")
    var maxInflateRatio: Int = PackLimits().maxInflateRatio

    @Option(help: "Write a picture of every atlas page with its frames outlined to this PNG file (its folder must exist).")
    var contactSheet: String?

    @Option(name: .shortAndLong, parsing: .unconditional, help: "How many files to decode at once (default: the number of cores).")
    var jobs: Int?  // no default value: the help would state the default a second time, as this machine's count

    @Flag(help: "Print one JSON document describing every asset on stdout.")
    var json = false

    @Flag(help: "Include the SHA-256 of each texture's decoded pixels (rows top to bottom, no padding) and of each pack entry's raw bytes.")
    var checksum = false

    @Flag(help: "Stop at the first failure and cancel the rest.")
    var failFast = false

    @Flag(
        help:
            "Fail every asset that loads only with a warning (a PNG without IEND, an atlas with Windows line ends, a region named twice): for checking assets in CI."
    )
    var strict = false

    @Flag(name: .shortAndLong, help: "No progress bar and no summary; failures still go to stderr.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "List every asset in the summary.")
    var verbose = false

    @Flag(
        help:
            "After loading, watch the files behind every loaded asset (an atlas's pages, a pack) and the folders given, and reload what changes (a file added to a folder loads; a folder deleted and made again is watched again), printing a line per reload or failure until interrupted."
    )
    var watch = false

    @Flag(
        help:
            "Trust baked packs whose index checksum passes: skip each entry's checksum (by default every entry is checked as it loads)."
    )
    var trust = false

    @Flag(name: .customLong("keep-16-bit"), help: "Decode 16-bit PNGs to RGBA16 instead of RGBA8.")
    var keepSixteenBit = false

    @Flag(help: "Premultiply colour by alpha.")
    var premultiply = false

    @Option(
        name: .customLong("audio"),
        help: "Load audio files as 'sound' (decoded now), 'music' (kept encoded, streamed) or 'automatic' (sounds up to 10 s, music beyond).")
    var audioKind: AudioLoaderSettings.Kind = .automatic

    @Flag(name: .customLong("float-samples"), help: "Decode sounds to 32-bit float samples instead of 16-bit.")
    var floatSamples = false

    @Option(name: .customLong("set"), help: SettingsOption.help)
    var settingAssignments: [String] = []

    /// `--set`'s assignments (``SettingsOption``).
    var settings: SettingsOption { SettingsOption(settingAssignments) }

    @Option(
        name: .customLong("memory-budget"),
        parsing: .unconditional,  // `--memory-budget -5` is a bad budget, not a missing value before an option `-5`
        help:
            "Hold at most this many MiB of decoded assets at once: each texture is checked (and checksummed) as it loads, then freed. For folders larger than memory."
    )
    var memoryBudgetMiB: Int?

    @Option(
        name: .customLong("cache"),
        help: "The folder http:// and https:// files download into (default: $XDG_CACHE_HOME/preload, or ~/.cache/preload).")
    var cache: String?

    func validate() throws {
        try settings.validate()  // first, as when it was an option group, checked as it was decoded
        guard !(quiet && verbose) else { throw ValidationError("--quiet and --verbose contradict each other: give one") }
        guard manifest != nil || groups.isEmpty else { throw ValidationError("--group needs --manifest") }
        if let root, !isFolder(root) { throw ValidationError("--root \(root): no such folder") }
        for path in paths + atlases + packs where !AssetPath.isRemote(path) { _ = try StoreNames.name(of: path, root: root) }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs)") }
        guard maxEntryMiB >= 1 else { throw ValidationError("--max-entry-mib must be at least 1, not \(maxEntryMiB)") }
        guard maxInflateRatio >= 1 else { throw ValidationError("--max-inflate-ratio must be at least 1, not \(maxInflateRatio)") }
        if let memoryBudgetMiB {
            guard memoryBudgetMiB >= 1 else { throw ValidationError("--memory-budget must be a positive number of MiB, not \(memoryBudgetMiB)") }
            guard contactSheet == nil else {
                throw ValidationError("--contact-sheet needs every page in memory: it cannot be combined with --memory-budget")
            }
        }
        if let contactSheet { try OutputPath.check(contactSheet, option: "--contact-sheet") }
        guard !watch || (memoryBudgetMiB == nil && !json) else { throw ValidationError("--watch cannot be combined with --memory-budget or --json") }
        for path in paths + atlases + packs where !AssetPath.isRemote(path) && path.contains("://") {
            throw ValidationError("\(path): only http:// and https:// URLs are fetched")
        }
        for path in paths + atlases + packs where !AssetPath.isRemote(path) && !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
        if let manifest, !FileManager.default.fileExists(atPath: manifest) { throw ValidationError("--manifest \(manifest): no such file") }
    }

    func run() async throws {
        // Checked here, not in `validate()`, which runs before the parser looks for unknown
        // options: `preload --bogus` is an unknown option, not a missing path.
        guard !paths.isEmpty || !atlases.isEmpty || !packs.isEmpty || manifest != nil else {
            // `preload load` alone where a folder `load` is: say so, as `preload atlas` does.
            if CommandLine.arguments.dropFirst().first == Self.configuration.commandName, let name = Self.configuration.commandName {
                try SubcommandNameClash.check(name)
            }
            throw ValidationError("give at least one file or directory to load, or --manifest")
        }
        if checksum { try SHA256.requireLibrary() }  // libcrypto hashes: missing, one clear error before any work
        let png = PNGLoader(
            defaults: PNGLoaderSettings(
                alphaMode: premultiply ? .premultiplied : .straight, keepsSixteenBitSamples: keepSixteenBit))
        let entryBytes = maxEntryMiB > Int.max >> 20 ? Int.max : maxEntryMiB << 20  // a huge value means no limit
        let packLoader = PackLoader(limits: PackLimits(maxEntryBytes: entryBytes, maxInflateRatio: maxInflateRatio))
        let baked = BakedPackLoader(verification: trust ? .indexOnly : .everyEntry)
        let audio = AudioLoader(defaults: AudioLoaderSettings(kind: audioKind, sampleFormat: floatSamples ? .float32 : .int16))
        let registry = try StandardPlugins.registry(png: png, pack: packLoader, baked: baked, audio: audio)
        let (read, manifestRequests, notices) = try manifest.map { try self.read($0, registry: registry) } ?? (nil, [], [])
        let requests = try settings.apply(
            to: manifestRequests + Self.requests(paths: paths, atlases: atlases, packs: packs, root: root, registry: registry), registry: registry,
            flags: flagSettings)

        // Under a budget, freed memory kept for reuse counts too: at most a quarter of the budget.
        let memory = memoryBudgetMiB.map { AssetMemory(configuration: .init(retainedLimit: budgetBytes($0) / 4)) } ?? .shared
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let fetcher = RemoteSetup.fetcher(cache: cache)
        let coordinator = PreloadCoordinator(
            registry: registry, configuration: .init(maxConcurrentLoads: workers, memory: memory, fetcher: fetcher))
        let bar = quiet ? nil : ProgressBar.onTerminal()
        var options = PreloadOptions(
            failurePolicy: failFast ? .failFast : .collectAll, storesAssets: false, isStrict: strict,
            reportKeepsAssets: Self.readsAssets(json: json, verbose: verbose, checksum: checksum, contactSheet: contactSheet, watch: watch),
            recordsTimings: json)  // only the JSON shows them
        let consumer = memoryBudgetMiB.map { _ in BudgetedConsumer(checksums: checksum) }
        if let consumer, let memoryBudgetMiB { options = consumer.options(options, budget: budgetBytes(memoryBudgetMiB)) }
        var hooks = PreloadHooks()
        if let bar { hooks.onProgress = { bar.draw($0) } }
        let report = try await coordinator.preload(requests, options: options, hooks: hooks)
        let consumedDigests = consumer?.finish() ?? [:]
        bar?.clear()

        // Each result is made only when something shows it (JSON, --verbose, checksums, a
        // contact sheet, packs' entries, warnings): the headline counts from the batch's records.
        let results = report.results
        let showsEach = json || verbose || checksum || contactSheet != nil || results.contains(plugin: "pack") || report.hasWarnings
        let requested = showsEach ? Array(results) : []  // made once: the summary and the JSON pass over it several times
        let counts = results.outcomeCounts
        let failures = results.failed
        let contents = PackContents(report: report, requested: requested)
        let warnings = ShownWarnings(report: report, requested: requested, packs: contents)
        let shown = requested + contents.entryAssets.values.joined()
        var digests = checksum ? AssetDigests.compute(for: shown) : [:]
        digests.merge(consumedDigests) { $1 }
        if let contactSheet {
            try ContactSheet.write(atlasesAmong: shown, to: contactSheet)
        }
        if json {
            let document = JSONDocument(
                report: report, requested: requested, registry: registry, digests: digests, packs: contents,
                warnings: warnings, notices: notices, budgeted: memoryBudgetMiB != nil)
            FileHandle.standardOutput.write(try document.encoded() + Data("\n".utf8))
        } else if !quiet {
            print(
                Summary(
                    report: report, counts: counts, failures: failures, requested: requested, digests: digests,
                    packs: contents, warnings: warnings, verbose: verbose, notices: notices, isStrict: strict
                ).text)
        }
        let failedNotices = strict ? notices.filter(\.isWarning) : []
        let assetsFailed = counts.failed > 0 || !contents.failedEntries.isEmpty || !failedNotices.isEmpty
        if assetsFailed && (quiet || json) {
            for error in report.errors { printError(error) }
            for notice in failedNotices { printError(notice) }
        }
        let failed = OutletFailureLines.printed(report) || assetsFailed
        if let hint = PhaserRootHint.line(for: report, manifest: read, requests: manifestRequests, root: root) { printDiagnostic("hint", hint) }
        if watch { try await Self.watch(report, coordinator: coordinator) }
        // Everything is written: end here rather than free every loaded asset one by one.
        fflush(nil)
        Foundation.exit(failed ? 1 : 0)
    }

    /// The requests of `--group`s of `path` (every group without one; entries' settings read by
    /// `registry`'s plugins), required groups first,
    /// and the notices of those groups (what a Phaser pack lists but will not load); a manifest
    /// that cannot be read, or a group it does not have, is a usage error: printed alone (thrown
    /// from `run()`, a `ValidationError` would come with the usage of `preload` itself, as if a
    /// subcommand were missing).
    private func read(
        _ path: String, registry: PluginRegistry
    ) throws -> (manifest: AssetManifest, requests: [AssetRequest], notices: [ManifestNotice]) {
        do {
            let manifest = try AssetManifest(contentsOf: path, registry: registry, webRoot: root)
            if root != nil && manifest.dialect != .phaserPack {
                printError("--root applies to Phaser asset packs; a Preload manifest names its own 'root'")
                throw ExitCode.validationFailure
            }
            return (manifest, try manifest.requests(for: groups), try manifest.notices(for: groups))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError(error)
            throw ExitCode.validationFailure
        }
    }

    /// Watches what `report` loaded and prints a line per reload, until the process is
    /// interrupted.
    private static func watch(_ report: PreloadReport, coordinator: PreloadCoordinator) async throws -> Never {
        let watcher = try AssetWatcher(coordinator: coordinator) { reload in
            var line = reload.description
            if let brief = (reload.asset as? any DescribedAsset)?.assetDescription(checksums: nil).brief { line += ": \(brief)" }
            FileHandle.standardOutput.write(Data((line.visibleInTerminal + "\n").utf8))
        }
        try watcher.watch(report)
        guard !watcher.watchedNames.isEmpty || watcher.watchedFolderCount > 0 else {
            // Waiting on nothing would look like waiting on something.
            let skipped = counted(report.skippedPaths.count, "file")
            printError("nothing to watch: no asset was loaded or failed and no folder was given (\(skipped) skipped, no plugin claims them)")
            fflush(nil)
            Foundation.exit(1)
        }
        print(watchingLine(assets: watcher.watchedNames.count, folders: watcher.watchedFolderCount))
        fflush(nil)
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    /// The line `--watch` prints once it watches: `Watching 1 asset in 1 folder; Ctrl-C stops.`
    static func watchingLine(assets: Int, folders: Int) -> String {
        "Watching \(counted(assets, "asset")) in \(counted(folders, "folder")); Ctrl-C stops."
    }

    /// Whether anything after the batch reads its assets (not only how they ended and how many
    /// bytes they held): `--json` and `--verbose` describe each one, `--checksum` hashes them,
    /// `--contact-sheet` draws the atlases, `--watch` goes on from them. Without any, the batch
    /// lets go of each asset once recorded (``PreloadOptions/reportKeepsAssets``): the summary,
    /// the failures, the warnings and the exit status read the records, and a pack (whose
    /// entries the summary counts) is kept by the batch.
    static func readsAssets(json: Bool, verbose: Bool, checksum: Bool, contactSheet: String?, watch: Bool) -> Bool {
        json || verbose || checksum || contactSheet != nil || watch
    }

    /// The settings this command's flags spell, as `--set` names them.
    private var flagSettings: [String] {
        (premultiply ? ["png.alpha=premultiplied"] : []) + (keepSixteenBit ? ["png.keep16Bit=true"] : [])
            + ["audio.kind=\(audioKind.rawValue)"] + (floatSamples ? ["audio.samples=float32"] : [])
    }

    /// `mib` MiB in bytes (a huge value means no limit).
    private func budgetBytes(_ mib: Int) -> Int { mib > Int.max >> 20 ? Int.max : mib << 20 }

    /// The requests for the command's arguments: atlases, packs, then each path as a folder
    /// request (walked by the library as `AssetRequest.folder` documents: a file given is kept
    /// if a plugin claims it, a failure otherwise), named relative to `root` when there is one
    /// (`StoreNames`). A sprite folder inside a pack given with `--pack` is an atlas of its own,
    /// as it is inside a pack found in a folder.
    static func requests(
        paths: [String], atlases: [String], packs: [String], root: String? = nil, registry: PluginRegistry
    ) throws -> [AssetRequest] {
        var seen = Set<String>()
        func named(_ path: String, plugin: String) throws -> AssetRequest {
            AssetRequest(path: path, name: AssetPath.isRemote(path) ? nil : try StoreNames.name(of: path, root: root), plugin: plugin)
        }
        let atlases = try atlases.filter { seen.insert($0).inserted }.map { try named($0, plugin: "atlas") }
        let packs = try packs.filter { seen.insert($0).inserted }.map { try named($0, plugin: "pack") }
        // A URL is one file (fetched, then claimed like any file); anything else may be a folder.
        let folders = try paths.filter { seen.insert($0).inserted }.map {
            AssetPath.isRemote($0) ? AssetRequest(path: $0) : AssetRequest.folder($0, name: try StoreNames.name(of: $0, root: root))
        }
        let inPacks = registry.assetFolders(inContainers: packs).filter { seen.insert($0.path).inserted }
        return atlases + packs + inPacks + folders
    }
}

extension AudioLoaderSettings.Kind: ExpressibleByArgument {}
