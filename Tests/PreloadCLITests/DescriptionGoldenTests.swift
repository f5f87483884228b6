import Foundation
import PreloadTestSupport
import Testing

/// What `--json`, `--verbose` and `--checksum` say about an asset of every kind (textures, data,
/// atlases, bitmap and TrueType fonts, maps, sounds with an audio sprite's ranges, music, packs),
/// byte for byte as the command printed it before each kind described itself
/// (`DescribedAsset`): the goldens in `Tests/Golden/Descriptions` were recorded by the
/// command of e4dff0a. Only what the machine changes is masked: times, and the peak of memory
/// held under a budget. One deliberate change since: `summary.decodedBytes` counts a map's tile
/// layers as the map's `bytes` does (`level1.tmx`'s 1,536 bytes: 4,567,053 -> 4,568,589; the
/// Phaser project's map, 32 bytes: 64,289 -> 64,321), which the count of shared textures left
/// out and `--memory-budget` then counted.
///
/// To record them again with another build of the command (after a deliberate change):
/// `PRELOAD_RECORD_GOLDEN=/path/to/preload swift test --filter DescriptionGoldenTests`.
@Suite struct DescriptionGoldenTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [
        ("sample-assets.json", ["--json", "--checksum", "sample-assets"]),
        ("sample-assets-plain.json", ["--json", "sample-assets"]),
        ("sample-assets-budget.json", ["--json", "--checksum", "--memory-budget", "1", "sample-assets"]),
        ("sample-assets-verbose.txt", ["--verbose", "--checksum", "sample-assets"]),
        ("sample-assets-budget-verbose.txt", ["--verbose", "--checksum", "--memory-budget", "1", "sample-assets"]),
    ])
    func sampleAssetsAreDescribedAsBefore(golden: String, arguments: [String]) async throws {
        try await compare(golden: golden, arguments: arguments, in: Self.repository.path, masking: nil)
    }

    @Test(arguments: [("phaser.json", "--json"), ("phaser-verbose.txt", "--verbose")])
    func aPhaserProjectIsDescribedAsBefore(golden: String, format: String) async throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        try await compare(
            golden: golden, arguments: ["--manifest", project.pack, "--root", project.root, format, "--checksum"], in: project.root,
            masking: project.root)
    }

    /// Runs the command with `arguments` in `directory` and compares what it prints, masked,
    /// with `golden` (recording it first under `PRELOAD_RECORD_GOLDEN`).
    private func compare(golden: String, arguments: [String], in directory: String, masking root: String?) async throws {
        let file = Self.repository.appendingPathComponent("Tests/Golden/Descriptions/\(golden)")
        if let recorder = ProcessInfo.processInfo.environment["PRELOAD_RECORD_GOLDEN"] {
            let run = try await CommandRunner.run(URL(fileURLWithPath: recorder), arguments, in: directory)
            try Data(Self.masked(run.stdout, root: root).utf8).write(to: file)
        }
        let run = try await CommandRunner.preload(arguments, in: directory)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let expected = try String(contentsOf: file, encoding: .utf8)
        let printed = Self.masked(run.stdout, root: root)
        #expect(printed == expected, "\(golden) differs:\n\(Self.firstDifference(printed, expected))")
    }

    /// `text` with its times, budget peak and `root` masked: `"seconds":0`, `N ms`, `ROOT`.
    static func masked(_ text: String, root: String?) -> String {
        var text = text
        if let root { text = text.replacingOccurrences(of: root, with: "ROOT") }
        text = text.replacing(#/"(seconds|queued|waitingForMemory|reading|decoding)":[0-9.e+-]+/#) { "\"\($0.output.1)\":0" }
        text = text.replacing(#/"peakHeldBytes":[0-9]+/#, with: "\"peakHeldBytes\":0")
        // The readable summary's times: `in 320 ms:` and `  0 ms` (not a sound's `0.30 s,`).
        return text.replacing(#/(in |  )[0-9.]+ (ms|s)(:|  |\n)/#) { "\($0.output.1)N ms\($0.output.3)" }
    }

    /// The first line where `a` and `b` differ, each side.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let (left, right) = (a.split(separator: "\n", omittingEmptySubsequences: false), b.split(separator: "\n", omittingEmptySubsequences: false))
        for index in 0..<max(left.count, right.count) where index >= left.count || index >= right.count || left[index] != right[index] {
            return
                "line \(index + 1):\n  now:    \(index < left.count ? left[index] : "(none)")\n  before: \(index < right.count ? right[index] : "(none)")"
        }
        return "(none)"
    }
}
