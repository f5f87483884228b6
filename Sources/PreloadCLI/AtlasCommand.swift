import ArgumentParser
import Foundation
import PreloadAuthoring
import Preload
import PreloadAtlas
import PreloadPNG

/// `preload atlas pack` and `preload atlas check`.
struct AtlasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atlas", abstract: "Pack sprite folders into atlases, and check atlases.",
        subcommands: [AtlasPackCommand.self, AtlasCheckCommand.self])

    /// Reached only when no subcommand is given: the help, or a usage error when `atlas` is also
    /// a file or folder here (`SubcommandNameClash`).
    func run() async throws {
        try SubcommandNameClash.check(Self.configuration.commandName ?? "atlas")
        throw CleanExit.helpRequest(self)
    }
}

/// Packing settings shared by the atlas commands.
struct PackingFlags: ParsableArguments {
    @Option(help: "Largest page side, up to 4096.") var maxPageSize = 2048
    @Option(help: "Pixels between sprites.") var padding = 2
    @Option(help: "Repeat sprite edge pixels this many times around each sprite.") var extrude = 0
    @Option(help: "Which @Nx variants to use (1, 2 or 3).") var scale = 1
    @Flag(help: "Keep transparent borders.") var noTrim = false
    @Flag(help: "Round page sizes up to powers of two.") var powerOfTwo = false
    @Flag(help: "Never turn sprites 90°.") var noRotation = false

    var options: AtlasLoaderSettings {
        AtlasLoaderSettings(
            maxPageSize: maxPageSize, padding: padding, trimsTransparentBorders: !noTrim, extrusion: extrude,
            powerOfTwoPages: powerOfTwo, allowsRotation: !noRotation, scale: scale)
    }
}

struct AtlasPackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Pack a sprite folder into BASE-N.png pages and a TexturePacker JSON hash descriptor BASE.json.",
        discussion: "Every file is written under a temporary name first and renamed into place at the end, so a failure leaves no partial output.")

    @Argument(help: "A folder of PNG sprites.") var folder: String
    @Option(name: .shortAndLong, help: "Output path without extension: BASE.json, BASE-0.png, ... (its folder must exist).") var output: String
    @OptionGroup var packing: PackingFlags

    func validate() throws {
        guard isFolder(folder) else { throw ValidationError("no such folder: \(folder)") }
        let sides = 0...AtlasLoaderSettings.largestPageSize
        guard (1...AtlasLoaderSettings.largestPageSize).contains(packing.maxPageSize), sides.contains(packing.padding),
            sides.contains(packing.extrude), (1...3).contains(packing.scale)
        else {
            throw ValidationError("--max-page-size must be 1-4096, --scale 1-3, --padding and --extrude 0-4096")
        }
        try OutputPath.check(output, option: "--output")
    }

    func run() async throws {
        let coordinator = PreloadCoordinator(registry: try StandardPlugins.registry(png: PNGLoader()))  // sprites of any format
        var request = AssetRequest(path: folder, name: "atlas", plugin: "atlas")
        request.options[AtlasLoaderSettings.self] = packing.options
        let report = try await coordinator.preload([request], options: PreloadOptions(storesAssets: false))
        guard let atlas = report.results.first?.outcome.asset as? TextureAtlas else {
            for error in report.errors { printError(error) }
            throw ExitCode(1)
        }
        let directory = AssetPath.directory(of: output).map { $0 + "/" } ?? ""
        var files: [(path: String, bytes: [UInt8])] = []
        for (index, page) in atlas.pages.enumerated() {
            files.append((directory + TexturePackerWriter.pageImageName(base: output, index: index), try PNGEncoder.encode(page.texture)))
        }
        for (index, descriptor) in try TexturePackerWriter.descriptors(for: atlas, base: output).enumerated() {
            files.append((directory + TexturePackerWriter.descriptorName(base: output, index: index), descriptor))
        }
        do {
            try AtomicFile.write(files)
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        let content = atlas.frames.reduce(0) { $0 + $1.contentWidth * $1.contentHeight }
        let area = atlas.pages.reduce(0) { $0 + $1.texture.width * $1.texture.height }
        print(
            String(
                format: "Packed %@ onto %@ (%@), occupancy %.1f%%: %@",
                counted(atlas.frames.count, "sprite"), counted(atlas.pages.count, "page"),
                atlas.pages.map { "\($0.texture.width)x\($0.texture.height)" }.joined(separator: ", "),
                100 * Double(content) / Double(max(area, 1)), files.map(\.path).joined(separator: ", ")))
        if OutletFailureLines.printed(report) { throw ExitCode(1) }
    }
}

struct AtlasCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check an atlas: frames outside pages, overlaps, missing or damaged pages; warnings for what loading forgives (names given twice, Windows line ends, pages without IEND).",
        discussion: "Exit status: 0 when the atlas is sound (warnings allowed unless --strict), 1 when a problem was found.")

    @Argument(help: "A sprite folder, a .json, a .atlas file or an .atlasc folder.") var path: String
    @OptionGroup var packing: PackingFlags
    @Flag(help: "Count every warning as a problem.") var strict = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("no such file or folder: \(path)") }
    }

    func run() throws {
        let report: AtlasCheck.Report
        do {
            report = try AtlasCheck.check(path: path, packing: packing.options)
        } catch {
            printError(AssetError(path: path, wrapping: error))
            throw ExitCode(1)
        }
        for problem in report.problems { print("problem: \(path): \(problem)".visibleInTerminal) }
        let label = strict ? "problem: strict" : "warning"
        for (file, warning) in report.warnings { print("\(label): \(file): \(warning.message)".visibleInTerminal) }
        let problems = report.problems.count + (strict ? report.warnings.count : 0)
        let warnings = strict ? 0 : report.warnings.count
        let pages = report.format == .folder ? "" : " on \(report.pages) page\(report.pages == 1 ? "" : "s")"
        var verdict = problems == 0 ? "ok" : "\(problems) problem\(problems == 1 ? "" : "s")"
        if warnings > 0 { verdict += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
        print("\(path): \(report.format.rawValue), \(report.frames) frame\(report.frames == 1 ? "" : "s")\(pages): \(verdict)")
        if problems > 0 { throw ExitCode(1) }
    }
}
