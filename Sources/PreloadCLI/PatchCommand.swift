import ArgumentParser
import Foundation
import Preload
import PreloadBaked

/// `preload patch OLD NEW -o DIR`: the Zstandard deltas that update a shipped baked pack to a
/// new version, published beside the new pack.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Write the deltas that update the baked pack OLD to NEW, for publishing beside NEW (docs/bake-format.md, \"Deltas\").",
        discussion: """
            Each entry of NEW whose bytes changed under its name is compressed with Zstandard \
            against its bytes in OLD (zstd's --patch-from), and kept where the delta is smaller than \
            the entry. The file goes in DIR/NEWNAME.deltas/, named by OLD's identity (its header's \
            CRC-32 and its length), written under a temporary name and renamed. Publish DIR as the \
            folder that holds NEW: a game updating OLD (PackUpdater, `preload fetch`) finds the \
            file beside the pack and fetches those deltas instead of the entries; the other \
            changed and new entries come whole.

            Exit status: 0 when the deltas were written, 1 when a pack cannot be read (not a \
            baked pack, damaged) or DIR cannot be written, 64 on a usage error.
            """)

    @Argument(help: "The pack players have (the old version).") var old: String
    @Argument(help: "The new version of the pack.") var new: String
    @Option(name: .shortAndLong, help: "The folder NEW is published from (made if missing; the folder holding it must exist).") var output: String
    @Option(help: "Zstandard level, 1 to 22 (a delta is made once and fetched by every player: the strong levels pay).")
    var level: Int32 = BakedPackDeltaWriter.defaultLevel

    func validate() throws {
        for path in [old, new] where !FileManager.default.fileExists(atPath: path) { throw ValidationError("no such file: \(path)") }
        try OutputPath.check(output, option: "--output")
        guard (1...22).contains(level) else { throw ValidationError("--level must be 1-22") }
    }

    func run() throws {
        let written: BakedPackDeltaWriter.Written
        do {
            written = try BakedPackDeltaWriter.write(old: old, new: new, into: output, level: level)
        } catch {
            printError(error)
            throw ExitCode.failure
        }
        let share = written.entryBytes > 0 ? String(format: " (%.1f%%)", 100 * Double(written.deltaBytes) / Double(written.entryBytes)) : ""
        print(
            "Wrote \(written.path): \(counted(written.entries, "entry", plural: "entries")) of \(written.changedEntries) changed as deltas, "
                + "\(Summary.bytes(Int(written.deltaBytes))) instead of \(Summary.bytes(Int(written.entryBytes)))\(share); "
                + "file \(Summary.bytes(Int(written.fileBytes)))")
    }
}
