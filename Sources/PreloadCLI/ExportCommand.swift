import ArgumentParser
import Foundation
import Preload
import PreloadAuthoring
import PreloadGPU
import PreloadManifest
import PreloadPNG

/// `preload export PATHS --to DIR`: what `preload PATHS` loads, each asset written as its kind
/// exports it (textures as PNG or KTX2, sounds and music as WAV).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Load what `preload PATHS` loads and write every asset as its kind exports it: textures (atlas pages included) as RGBA PNG at DIR/<store name>.png (or KTX2), sounds and music as WAV.",
        discussion: """
            Any format a plugin loads, loose, from a pack or from a baked pack. The store name is \
            kept whole and `.png` appended (`sprites/hero.png` → DIR/sprites/hero.png.png, a pack \
            entry `level1.pak#hud.png` → DIR/level1.pak#hud.png.png); a page an atlas packed at \
            load time is `ATLAS#N`. RGBA16 textures are written with 8-bit samples. With --ktx2, \
            each texture is a KTX2 file (DIR/<store name>.ktx2) holding it as loaded (a GPU \
            bake's BC7 or ASTC levels as they are), or as --gpu encodes it. Every other kind \
            writes what it exports itself: sounds and music as WAV (DIR/<store name>.wav).

            Exit status: 0 when every asset loaded and every file was written, 1 otherwise (a \
            batch outlet that failed included: an error line each, naming the outlet and the \
            cause), 64 on a usage error.
            """)

    @Argument(help: "Files and directories to load.")
    var paths: [String] = []

    @Option(help: "The folder to write the files into (made if missing; the folder holding it must exist).")
    var to: String

    @Option(help: "A manifest whose groups to load (every group, or those of --group).")
    var manifest: String?

    @Option(name: .customLong("group"), help: "A group of --manifest, with the groups it requires (repeatable).")
    var groups: [String] = []

    @Option(
        help:
            "The folder store names (and so file names under --to) are relative to: of the paths given, and of a Phaser asset pack's URLs. Default: the current directory."
    )
    var root: String?

    @Flag(
        name: .customLong("ktx2"), help: "Write KTX2 files (DIR/<store name>.ktx2: every level, as loaded or as --gpu encodes them) instead of PNG.")
    var ktx2 = false

    @Flag(help: "With --ktx2: compress each level with Zstandard (KTX2's supercompression scheme 2).")
    var zstd = false

    @Flag(help: "With --gpu: fail when any texture falls below --min-psnr.")
    var strict = false

    @OptionGroup var gpuOptions: GPUOptions

    @Option(name: .customLong("set"), help: SettingsOption.help)
    var settingAssignments: [String] = []

    /// `--set`'s assignments (``SettingsOption``).
    var settings: SettingsOption { SettingsOption(settingAssignments) }

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try settings.validate()  // first, as when it was an option group, checked as it was decoded
        guard !paths.isEmpty || manifest != nil else { throw ValidationError("give at least one file or directory to export, or --manifest") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
        if let manifest, !FileManager.default.fileExists(atPath: manifest) { throw ValidationError("--manifest \(manifest): no such file") }
        try OutputPath.check(to, option: "--to")
        guard manifest != nil || groups.isEmpty else { throw ValidationError("--group needs --manifest") }
        if let root, !isFolder(root) { throw ValidationError("--root \(root): no such folder") }
        for path in paths { _ = try StoreNames.name(of: path, root: root) }
        guard !zstd || ktx2 else { throw ValidationError("--zstd needs --ktx2") }
        guard gpuOptions.gpu == nil || ktx2 else { throw ValidationError("--gpu writes GPU formats, which PNG cannot hold: add --ktx2") }
        _ = try gpuOptions.textureBaking(strict: strict, jobs: nil)
    }

    func run() async throws {
        if gpuOptions.gpu != nil { DebugBuildNotice.show() }
        let registry = try StandardPlugins.registry(png: PNGLoader())
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
        requests = try settings.apply(to: requests, registry: registry)
        let coordinator = PreloadCoordinator(registry: registry, configuration: .init(fetcher: RemoteSetup.fetcher(cache: nil)))  // a manifest's URLs
        let report = try await coordinator.preload(requests, options: PreloadOptions(storesAssets: false))
        for error in report.errors { printError(error) }
        if let hint = PhaserRootHint.line(for: report, manifest: read?.manifest, requests: read?.requests ?? [], root: root) {
            printDiagnostic("hint", hint)
        }
        let exported: AssetExporter.Exported
        do {
            exported = try AssetExporter.write(
                report, to: to, textures: ktx2 ? .ktx2(zstd ? .zstd : .none) : .png, baking: try gpuOptions.textureBaking(strict: strict, jobs: nil))
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        let skipped = exported.textures.skipped + exported.skipped
        for (name, reason) in skipped { printError("\(name): not exported: \(reason)") }
        if !quiet {
            for line in GPUBakeLines.lines(of: exported.textures.gpu, threshold: gpuOptions.minimumPSNR ?? 35) { print(line.visibleInTerminal) }
            print("\(exported) to \(to)".visibleInTerminal)
        }
        if OutletFailureLines.printed(report) || !report.errors.isEmpty || !skipped.isEmpty { throw ExitCode(1) }
    }
}
