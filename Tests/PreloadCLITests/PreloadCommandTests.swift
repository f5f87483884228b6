import Foundation
import Preload
import PreloadRemote
import PreloadTestSupport
import Testing

/// Runs the real `preload` binary and checks its output and exit status.
@Suite struct PreloadCommandTests {
    func preload(_ arguments: [String], in directory: String) async throws -> CommandRunner.Run {
        try await CommandRunner.preload(arguments, in: directory)
    }

    let directory: TemporaryDirectory
    let pixels = PNGFixture.noise(width: 12, height: 7, seed: 3)

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("art/good.png", PNGFixture.rgba(width: 12, height: 7, pixels: pixels))
        let whole = PNGFixture.rgba(width: 40, height: 40, pixels: PNGFixture.noise(width: 40, height: 40))
        try directory.write("art/sub/truncated.png", Array(whole.prefix(whole.count / 2)))
        try directory.write("art/fake.png", Array("plain text, not a PNG at all".utf8))
        try directory.write("art/readme.txt", Array("not an asset".utf8))
        try directory.write("art/.hidden.png", Array("ignored".utf8))
    }

    @Test func jsonDescribesEveryAssetAndExitsOneOnFailure() async throws {
        let run = try await preload(["art", "--json", "--checksum"], in: directory.path)
        #expect(run.status == 1)
        let json = try #require(run.json, "stdout is one JSON document: \(run.stdout)")
        let assets = try #require(json["assets"] as? [[String: Any]])
        #expect(assets.map { $0["path"] as? String } == ["art/fake.png", "art/good.png", "art/sub/truncated.png"])

        let good = assets[1]
        #expect(good["kind"] as? String == "texture" && good["plugin"] as? String == "png")
        #expect(good["status"] as? String == "loaded")
        #expect(good["width"] as? Int == 12 && good["height"] as? Int == 7)
        #expect(good["pixelFormat"] as? String == "rgba8" && good["bytes"] as? Int == 12 * 7 * 4)
        let digest = try SHA256.hash(data: pixels).hexString
        #expect(good["sha256"] as? String == digest)

        #expect(assets[0]["status"] as? String == "failed")
        #expect(assets[0]["error"] as? String == "art/fake.png: not a PNG file (no PNG signature)")
        #expect(assets[2]["status"] as? String == "failed")
        #expect((assets[2]["error"] as? String)?.hasPrefix("art/sub/truncated.png: truncated PNG") == true)
        #expect(assets[0]["sha256"] == nil && assets[0]["width"] == nil)

        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["loaded"] as? Int == 1 && summary["failed"] as? Int == 2)
        #expect(summary["cancelled"] as? Int == 0 && summary["skipped"] as? Int == 1)
        #expect(summary["decodedBytes"] as? Int == 12 * 7 * 4)
        #expect((summary["seconds"] as? Double ?? -1) >= 0)
        #expect(run.stderr.contains("Error: art/fake.png"), "failures also go to stderr")
    }

    @Test func aMemoryBudgetReportsExactlyWhatLoadingEverythingAtOnceReports() async throws {
        for index in 0..<6 {  // 6 textures of 1 MiB under a budget of 1 MiB: one at a time
            try directory.write(
                "big/texture-\(index).png",
                PNGFixture.rgba(width: 512, height: 512, pixels: PNGFixture.noise(width: 512, height: 512, seed: UInt64(index))))
        }
        try directory.write("big/hero.atlas/a.png", PNGFixture.rgba(width: 12, height: 7, pixels: pixels))  // kept whole
        try directory.write("big/broken.png", Array("GIF89a".utf8))
        let whole = try await preload(["art/good.png", "big", "--json", "--checksum"], in: directory.path)
        let budgeted = try await preload(["art/good.png", "big", "--json", "--checksum", "--memory-budget", "1"], in: directory.path)
        #expect(whole.status == 1 && budgeted.status == 1, "the broken file fails either way")
        let wholeAssets = try #require(whole.json?["assets"] as? [[String: Any]])
        let budgetedAssets = try #require(budgeted.json?["assets"] as? [[String: Any]])
        func facts(_ assets: [[String: Any]]) -> [String] {
            assets.map {
                "\($0["path"] ?? "") \($0["status"] ?? "") \($0["width"] ?? "") \($0["bytes"] ?? "") \($0["sha256"] ?? "") \(($0["frames"] as? [[String: Any]])?.map { $0["sha256"] as? String ?? "" } ?? [])"
            }
        }
        #expect(wholeAssets.count == 9 && wholeAssets.filter { $0["sha256"] != nil }.count == 7)
        #expect(facts(budgetedAssets) == facts(wholeAssets), "the same assets, sizes and pixel digests")
        let decoded = [whole, budgeted].map { ($0.json?["summary"] as? [String: Any])?["decodedBytes"] as? Int }
        #expect(decoded[0] == decoded[1] && (decoded[0] ?? 0) > 6 * 512 * 512 * 4)

        let refused = try await preload(["big", "--memory-budget", "1", "--contact-sheet", "x.png"], in: directory.path)
        #expect(refused.status == 64 && refused.stderr.contains("--contact-sheet"))
    }

    @Test func withoutChecksumThereIsNoDigest() async throws {
        let run = try await preload(["art/good.png", "--json"], in: directory.path)
        #expect(run.status == 0)
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        #expect(assets.count == 1 && assets[0]["sha256"] == nil)
    }

    @Test func readableSummaryAndNoBarWhenStderrIsNotATerminal() async throws {
        let run = try await preload(["art/good.png"], in: directory.path)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Loaded 1 of 1 asset in "))
        #expect(run.stderr.isEmpty, "no progress bar on a pipe: \(run.stderr)")

        let failing = try await preload(["art"], in: directory.path)
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("FAILED 2 assets; loaded 1 of 3 assets in "), "\(failing.stdout)")
        #expect(failing.stdout.contains("failed:    2") && failing.stdout.contains("skipped:   1"))
        #expect(failing.stdout.contains("FAIL  art/fake.png: not a PNG file"))
    }

    @Test func quietPrintsNothingButFailures() async throws {
        let ok = try await preload(["art/good.png", "--quiet"], in: directory.path)
        #expect(ok.status == 0 && ok.stdout.isEmpty && ok.stderr.isEmpty)
        let bad = try await preload(["art/fake.png", "-q"], in: directory.path)
        #expect(bad.status == 1 && bad.stdout.isEmpty && bad.stderr.contains("art/fake.png"))
    }

    @Test func failFastCancelsTheRest() async throws {
        for index in 0..<5 {
            try directory.write("ff/z\(index).png", PNGFixture.rgba(width: 64, height: 64, pixels: PNGFixture.noise(width: 64, height: 64)))
        }
        try directory.write("ff/a_broken.png", Array("broken".utf8))
        let run = try await preload(["ff", "--json", "--fail-fast", "--jobs", "1"], in: directory.path)
        #expect(run.status == 1)
        let summary = try #require(run.json?["summary"] as? [String: Any])
        #expect(summary["failed"] as? Int == 1 && summary["cancelled"] as? Int == 5 && summary["loaded"] as? Int == 0)
    }

    @Test func symbolicLinksToFilesCountButLinkLoopsDoNotHang() async throws {
        try FileManager.default.createSymbolicLink(atPath: directory.file("art/linked.png"), withDestinationPath: "good.png")
        try FileManager.default.createSymbolicLink(atPath: directory.file("art/sub/loop"), withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: directory.file("art/dangling.png"), withDestinationPath: "nowhere.png")
        let run = try await preload(["art", "--json"], in: directory.path)
        let assets = run.json?["assets"] as? [[String: Any]] ?? []
        #expect(
            assets.compactMap { $0["path"] as? String } == [
                "art/dangling.png", "art/fake.png", "art/good.png", "art/linked.png", "art/sub/truncated.png",
            ])
        // A link that leads nowhere fails by its name rather than vanishing from the count.
        let dangling = try #require(assets.first)
        #expect(
            dangling["status"] as? String == "failed"
                && (dangling["error"] as? String)?.hasSuffix("a symbolic link to nowhere.png, which does not exist") == true,
            "\(dangling)")
    }

    /// A file named on the command line that no plugin claims fails by name (exit 1); the same
    /// file found by walking its folder is skipped and listed, with why under --verbose.
    @Test func aFileNamedThatNoPluginClaimsFailsButInAFolderIsSkipped() async throws {
        try directory.write("level/notes.json", text: "{\"a\": 1}")
        try directory.write("level/hero.png", PNGFixture.rgba(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)))
        let named = try await preload(["level/notes.json"], in: directory.path)
        #expect(named.status == 1)
        #expect(named.stdout.contains("FAIL  level/notes.json: no loader plugin claims it, by its extension or its content"), "\(named.stdout)")
        let walked = try await preload(["level", "--verbose"], in: directory.path)
        #expect(walked.status == 0, "\(walked.stdout)")
        #expect(walked.stdout.contains("  skip  level/notes.json: no loader plugin claims it"), "\(walked.stdout)")
    }

    @Test func namesThatAreNotUTF8FailByNameAndSpecialFilesNeverHang() async throws {
        directory.createFileWithNonUTF8Name("art/odd\u{1}.png")
        directory.createFileWithNonUTF8Name("art/notes\u{1}.txt")
        #expect(mkfifo(directory.file("art/pipe.png"), 0o644) == 0)
        let run = try await preload(["art", "--json"], in: directory.path)
        #expect(run.status == 1)
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        let odd = try #require(assets.first { ($0["path"] as? String) == "art/odd\u{FFFD}.png" })
        #expect(odd["status"] as? String == "failed" && odd["errorCategory"] as? String == "unreadable")
        #expect((odd["error"] as? String)?.contains("not valid UTF-8") == true)
        #expect(!assets.contains { ($0["path"] as? String) == "art/pipe.png" }, "a walk loads regular files only")
        let skipped = try #require(run.json?["skippedPaths"] as? [String])
        #expect(skipped.contains("art/notes\u{FFFD}.txt") && skipped.contains("art/readme.txt") && skipped.contains("art/pipe.png"))
        #expect(run.json?["skipReasons"] as? [String: String] == ["art/pipe.png": "a FIFO (named pipe), not a file"], "listed, with why")
        let summary = try #require(run.json?["summary"] as? [String: Any])
        #expect(summary["failed"] as? Int == 3 && summary["loaded"] as? Int == 1)
        let text = try await preload(["art"], in: directory.path)
        let skipLines = "  skipped:   3 (2 no loader plugin claims, 1 not a file)\n  skip  art/pipe.png: a FIFO (named pipe), not a file"
        #expect(text.stdout.contains(skipLines), "named without --verbose: \(text.stdout)")

        let named = try await preload(["art/pipe.png"], in: directory.path)  // opening a FIFO would block
        #expect(named.status == 1)
        #expect(named.stderr.contains("not a regular file") || named.stdout.contains("not a regular file"))
    }

    @Test func versionUnknownOptionsHelpTopicsAndContradictionsAreWhatTheySay() async throws {
        let version = try await preload(["--version"], in: directory.path)
        #expect(version.status == 0 && version.stdout == "preload (unreleased) writing baked packs version 2 and .pak version 1\n", "\(version)")
        let bogus = try await preload(["--bogus"], in: directory.path)
        #expect(bogus.status == 64 && bogus.stderr.hasPrefix("Error: Unknown option '--bogus'"), "\(bogus.stderr)")
        let topic = try await preload(["help", "nope"], in: directory.path)
        #expect(topic.status == 64 && topic.stderr.hasPrefix("Error: no help on 'nope': preload has the subcommands load, atlas,"), "\(topic)")
        let nested = try await preload(["help", "pack", "list"], in: directory.path)
        #expect(nested.status == 0 && nested.stdout.hasPrefix("OVERVIEW: List a pack's entries"), "\(nested)")
        let both = try await preload(["art", "--quiet", "--verbose"], in: directory.path)
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --quiet and --verbose contradict each other"), "\(both.stderr)")
        let help = try await preload(["load", "--help"], in: directory.path)
        let jobs = help.stdout.components(separatedBy: "--jobs <jobs>").dropFirst().first?.components(separatedBy: "--json").first ?? ""
        #expect(jobs.components(separatedBy: "(default").count == 2, "the default stated once: \(jobs)")
    }

    /// `preload --help` lists the plugins the command registers, each with the extensions it claims.
    @Test func theRootHelpListsThePluginsAndTheirExtensions() async throws {
        let help = try await preload(["--help"], in: directory.path)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // as wrapped
        #expect(help.status == 0)
        for plugin in ["png (.png)", "ktx2 (.ktx2)", "tilemap (.tmj .tmx)", "pack (.gz .pak .zip)", "baked (.bake)", "data (when named)"] {
            #expect(text.contains(plugin), "\(plugin) in: \(text)")
        }
    }

    /// `-help` is a help flag as `--help` is: the help made for it lists the plugins and the keys of
    /// their settings too, not the "(see --help)" made for a command line that prints no help.
    @Test func singleDashHelpListsWhatDoubleDashHelpLists() async throws {
        for command in [[], ["load"], ["bake"], ["export"]] {
            let single = try await preload(command + ["-help"], in: directory.path)
            let double = try await preload(command + ["--help"], in: directory.path)
            #expect(single.status == 0 && single.stdout == double.stdout, "\(command)")
            #expect(!single.stdout.contains("(see --help)"), "\(command): \(single.stdout)")
        }
    }

    @Test func usageErrorsExitWith64() async throws {
        #expect(try await preload(["--no-such-option", "art"], in: directory.path).status == 64)
        let missing = try await preload(["art", "does/not/exist.png"], in: directory.path)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("does/not/exist.png"))
        #expect(try await preload([], in: directory.path).status == 64)
        #expect(try await preload(["art", "--jobs", "0"], in: directory.path).status == 64)
    }

    /// `preload --memory-budget -5` is a bad budget, not a missing value; a missing manifest is
    /// named, without the usage of another command.
    @Test func usageErrorsNameTheRealProblem() async throws {
        let negative = try await preload(["art", "--memory-budget", "-5"], in: directory.path)
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--memory-budget must be a positive number of MiB, not -5"), "\(negative.stderr)")
        #expect(!negative.stderr.contains("Missing value"))
        let zero = try await preload(["art", "--memory-budget", "0"], in: directory.path)
        #expect(zero.status == 64 && zero.stderr.contains("--memory-budget must be a positive number of MiB, not 0"))
        for (option, message) in [("--jobs", "--jobs must be at least 1, not -1"), ("--max-entry-mib", "--max-entry-mib must be at least 1, not -1")]
        {
            let result = try await preload(["art", option, "-1"], in: directory.path)
            #expect(result.status == 64 && result.stderr.contains(message) && !result.stderr.contains("Missing value"), "\(result.stderr)")
        }

        // A missing manifest is named with its option, by every command that takes one.
        let nowhere = directory.file("nope.json")
        try directory.write("old.bake", [0])
        for command in [[], ["bake", "-o", directory.file("out.bake")], ["bake", "check", "old.bake"], ["export", "--to", directory.file("png")]] {
            let manifest = try await preload(command + ["--manifest", nowhere], in: directory.path)
            #expect(manifest.status == 64, "\(command)")
            #expect(manifest.stderr.contains("--manifest \(nowhere): no such file"), "\(command): \(manifest.stderr)")
            #expect(!manifest.stderr.contains("preload <subcommand>"), "no usage line about a missing subcommand")
        }
    }

    /// `preload atlas` where a folder `atlas` is: a usage error saying how to load the folder, not
    /// the subcommand's help and success; the subcommands themselves still work.
    @Test func aSubcommandNameThatIsAlsoAFolderHereIsAUsageError() async throws {
        try directory.write("atlas/hero.png", PNGFixture.rgba(width: 12, height: 7, pixels: pixels))
        let bare = try await preload(["atlas"], in: directory.path)
        #expect(bare.status == 64 && bare.stdout.isEmpty)
        let message = "'atlas' is both a subcommand and a folder here; to load the folder, write 'preload ./atlas' "
        #expect(bare.stderr == "Error: " + message + "('preload atlas --help' shows the subcommand)\n", "\(bare.stderr)")
        try directory.write("pack", text: "a file, not a folder")
        let file = try await preload(["pack"], in: directory.path)
        #expect(file.status == 64 && file.stderr.contains("'pack' is both a subcommand and a file here; to load the file, write 'preload ./pack'"))
        try directory.write("load/hero.png", PNGFixture.rgba(width: 12, height: 7, pixels: pixels))
        let load = try await preload(["load"], in: directory.path)
        #expect(load.status == 64 && load.stderr.contains("'load' is both a subcommand and a folder here"), "\(load.stderr)")

        let dotted = try await preload(["./atlas"], in: directory.path)
        #expect(dotted.status == 0 && dotted.stdout.hasPrefix("Loaded 1 of 1 asset in "), "\(dotted.stdout)\(dotted.stderr)")
        #expect(try await preload(["load", "atlas"], in: directory.path).status == 0)
        let help = try await preload(["atlas", "--help"], in: directory.path)
        #expect(help.status == 0 && help.stdout.contains("USAGE: preload atlas <subcommand>"))
        let create = try await preload(["pack", "create", "art", "--output", "art.pak"], in: directory.path)
        #expect(create.status == 0 && create.stdout.hasPrefix("Packed "), "a subcommand with arguments runs: \(create.stderr)")
        let elsewhere = try TemporaryDirectory()
        let unclashed = try await preload(["atlas"], in: elsewhere.path)
        #expect(unclashed.status == 0 && unclashed.stdout.contains("USAGE: preload atlas <subcommand>"), "no folder: the help, as before")
    }

    @Test func optionsReachTheDecoder() async throws {
        let run = try await preload(["art/good.png", "--json", "--keep-16-bit", "--premultiply"], in: directory.path)
        #expect(run.status == 0)
        let asset = try #require((run.json?["assets"] as? [[String: Any]])?.first)
        #expect(asset["pixelFormat"] as? String == "rgba8", "an 8-bit file stays RGBA8")
    }
}
