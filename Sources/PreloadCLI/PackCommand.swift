import ArgumentParser
import Foundation
import PreloadAuthoring
import Preload
import PreloadPack

/// `preload pack create`, `preload pack list`, `preload pack extract`.
struct PackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack", abstract: "Create, list and extract data packs (docs/pack-format.md).",
        subcommands: [PackCreateCommand.self, PackListCommand.self, PackExtractCommand.self])

    /// Reached only when no subcommand is given: the help, or a usage error when `pack` is also
    /// a file or folder here (`SubcommandNameClash`).
    func run() throws {
        try SubcommandNameClash.check(Self.configuration.commandName ?? "pack")
        throw CleanExit.helpRequest(self)
    }
}

struct PackCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Pack every non-hidden file below DIR into FILE.pak.",
        discussion: "The output is deterministic (the same files give the same bytes) and written under a temporary name, then renamed.")

    @Argument(help: "The folder to pack.") var folder: String
    @Option(name: .shortAndLong, help: "The pack to write (its folder must exist).") var output: String
    @Option(help: "zlib level, 0 (store) to 9.") var level = 6
    @Option(name: .shortAndLong, help: "Entries compressed at once (default: the number of cores).") var jobs: Int?

    func validate() throws {
        guard isFolder(folder) else { throw ValidationError("no such folder: \(folder)") }
        try OutputPath.check(output, option: "--output")
        guard (0...9).contains(level), (jobs ?? 1) >= 1 else { throw ValidationError("--level must be 0-9 and --jobs at least 1") }
    }

    func run() throws {
        let clock = ContinuousClock.now
        let index: PackIndex
        do {
            let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            index = try PakWriter.write(try PakWriter.sources(in: folder), to: output, level: level, jobs: workers)
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        let raw = index.entries.reduce(UInt64(0)) { $0 + ($1.rawSize ?? 0) }
        let stored = index.entries.reduce(UInt64(0)) { $0 + $1.storedSize }
        print(
            "Packed \(counted(index.entries.count, "entry", plural: "entries")) into \(output): \(raw) bytes stored as \(stored) in \((ContinuousClock.now - clock).formatted(.units(allowed: [.milliseconds])))"
        )
    }
}

struct PackListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List a pack's entries (a .pak, .zip or .gz).",
        discussion: "Exit status: 0, or 1 when the pack (or, with --verify, an entry) is damaged, 64 on a usage error (no such file).")

    @Argument(help: "The pack.") var file: String
    @Flag(help: "Also read every entry and check its size and CRC-32.") var verify = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no such file: \(file)") }
    }

    func run() throws {
        let index: PackIndex
        do {
            index = try PackIndexReader.index(at: file)
        } catch {
            printError(AssetError(path: file, wrapping: error))
            throw ExitCode(1)
        }
        var failures = 0
        for entry in index.entries {
            var line = "\(entry.rawSize.map(String.init) ?? "?")\t\(entry.storedSize)\t\(entry.method.rawValue)\t\(entry.name.visibleInTerminal)"
            if verify {
                do {
                    _ = try EntryReader.read(entry, from: file)
                    line += "\tok"
                } catch {
                    line += "\tFAILED: " + "\(error)".visibleInTerminal
                    failures += 1
                }
            }
            print(line)
        }
        print("\(counted(index.entries.count, "entry", plural: "entries")) (\(index.format.rawValue))" + (verify ? ", \(failures) failed" : ""))
        if failures > 0 { throw ExitCode(1) }
    }
}

struct PackExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract", abstract: "Extract a pack's entries into a folder.",
        discussion: """
            Refuses names that would land outside the folder (and folders reached through symbolic \
            links), and refuses to replace existing files unless --overwrite is given; in both \
            cases nothing is written. Every entry is checked (size, CRC-32) as it is extracted.
            """)

    @Argument(help: "The pack.") var file: String
    @Option(name: .shortAndLong, help: "The folder to extract into (made if missing; the folder holding it must exist).") var output: String
    @Flag(help: "Replace files that already exist.") var overwrite = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no such file: \(file)") }
        try OutputPath.check(output, option: "--output")
    }

    func run() throws {
        do {
            let index = try PackIndexReader.index(at: file)
            let plan = try ExtractionPlan(index: index, into: output, overwrite: overwrite)
            for (entry, destination) in plan.targets {
                let file = try AtomicFile(path: destination)
                try EntryReader.read(entry, from: self.file).withUnsafeBytes { try file.write($0) }
                try file.commit()
            }
            print("Extracted \(counted(plan.targets.count, "entry", plural: "entries")) into \(output)")
        } catch let refusal as ExtractionPlan.Refusal {
            // One line per problem: the terminal filter would show the newlines as `\n`.
            printError("\(file): extraction refused, nothing was written")
            for problem in refusal.problems { printError("\(file): \(problem)") }
            throw ExitCode(1)
        } catch {
            printError(AssetError(path: file, wrapping: error))
            throw ExitCode(1)
        }
    }
}
