import Foundation
import Preload
import PreloadTestSupport
import Testing

/// `preload bake --gpu` through its bake cache (docs/bake-format.md, "The bake cache"): a warm
/// cache gives the same pack and encodes nothing, a changed texture is the one encoded again, a
/// damaged entry is named and replaced, a cache that cannot be written costs one warning, and
/// four shards in four processes fill a cache from which a plain bake assembles the same pack.
@Suite struct BakeCacheCommandTests {
    let directory: TemporaryDirectory
    /// The sources: the sample sprites, tiles and atlases (pages of their own among them).
    static let sources = ["assets/sprites", "assets/tiles", "assets/atlases"]

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: PackLoadCommandTests.sampleAssets, toPath: directory.file("assets"))
    }

    /// Bakes the sources with `--gpu bc --quality fast` and `options` into `pack`; the run and
    /// the pack's bytes (empty when none was written).
    func bake(_ pack: String, _ options: [String], environment: [String: String] = [:]) async throws -> (run: CommandRunner.Run, bytes: [UInt8]) {
        let run = try await CommandRunner.run(
            CommandRunner.binary("preload"), ["bake"] + Self.sources + ["-o", pack, "--gpu", "bc", "--quality", "fast"] + options,
            in: directory.path, environment: environment)
        try #require(run.status == 0, "\(options): \(run.stderr)")
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: directory.file(pack)))).map { [UInt8]($0) } ?? []
        return (run, bytes)
    }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))) }

    /// The `Bake cache:` line's counts (`Bake cache: 9 textures from the cache, 1 encoded; ...`):
    /// from the cache, encoded.
    func counts(_ run: CommandRunner.Run) throws -> (cached: Int, encoded: Int) {
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Bake cache: ") }, "\(run.stdout)")
        let words = line.split(separator: " ")
        let encoded = try #require(words.firstIndex { $0.hasPrefix("encoded") })
        return (try #require(Int(words[2])), try #require(Int(words[encoded - 1])))
    }

    @Test func aWarmCacheGivesTheSamePackAndEncodesNothingAndAChangedTextureIsEncodedAlone() async throws {
        let uncached = try await bake("uncached.bake", ["--no-bake-cache"])
        #expect(!uncached.run.stdout.contains("Bake cache"))
        let cold = try await bake("cold.bake", ["--bake-cache", "cache"])
        let textures = try counts(cold.run).encoded
        let coldCached = try counts(cold.run).cached
        #expect(textures >= 8 && coldCached == 0, "\(cold.run.stdout)")
        #expect(cold.bytes == uncached.bytes)
        let warm = try await bake("warm.bake", ["--bake-cache", "cache"])
        let warmCounts = try counts(warm.run)
        #expect(warmCounts.cached == textures && warmCounts.encoded == 0, "\(warm.run.stdout)")
        #expect(warm.run.stdout.contains(" s of encoding saved"))
        #expect(warm.bytes == cold.bytes)

        try directory.write("assets/sprites/coin.png", PNGFixture.noisePNG(side: 32, seed: 11))
        let changed = try await bake("changed.bake", ["--bake-cache", "cache"])
        let changedCounts = try counts(changed.run)
        #expect(changedCounts.cached == textures - 1 && changedCounts.encoded == 1, "\(changed.run.stdout)")
        let changedUncached = try await bake("changed-uncached.bake", ["--no-bake-cache"])
        #expect(changed.bytes == changedUncached.bytes)
    }

    @Test func aFlippedByteInACachedEntryIsNamedEncodedAgainAndReplaced() async throws {
        let cold = try await bake("cold.bake", ["--bake-cache", "cache"])
        let textures = try counts(cold.run).encoded
        // The content entry of the hero sprite, found through its action record.
        var target: String?
        for record in try FileManager.default.contentsOfDirectory(atPath: directory.file("cache/ac")) {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.file("cache/ac/\(record)"))))
            if let fields = json as? [String: Any], fields["name"] as? String == "assets/sprites/hero.png" { target = fields["cas"] as? String }
        }
        let cas = try #require(target)
        var bytes = try read("cache/cas/\(cas)")
        bytes[bytes.count / 2] ^= 0x20
        try directory.write("cache/cas/\(cas)", bytes)

        let damaged = try await bake("damaged.bake", ["--bake-cache", "cache"])
        let damagedCounts = try counts(damaged.run)
        #expect(damagedCounts.cached == textures - 1 && damagedCounts.encoded == 1, "\(damaged.run.stdout)")
        let named = damaged.run.stdout.split(separator: "\n").filter { $0.contains("do not match their SHA-256") }
        #expect(named.count == 1 && named[0].contains("assets/sprites/hero.png") && named[0].contains("replaced"), "\(damaged.run.stdout)")
        #expect(damaged.bytes == cold.bytes)
        let replaced = try SHA256.hash(data: read("cache/cas/\(cas)")).hexString
        #expect(replaced == cas, "the entry was replaced")
        let again = try await bake("again.bake", ["--bake-cache", "cache"])
        let againCounts = try counts(again.run)
        #expect(againCounts.cached == textures && againCounts.encoded == 0 && !again.run.stdout.contains("SHA-256"), "\(again.run.stdout)")
    }

    @Test func aCacheThatCannotBeWrittenCostsOneWarningAndTheBakeGoesOn() async throws {
        let uncached = try await bake("uncached.bake", ["--no-bake-cache"])
        // A file where the cache's folder would be: nothing can be made under it, even by root.
        try directory.write("blocker", Array("not a folder".utf8))
        let blocked = try await bake("blocked.bake", ["--bake-cache", "blocker/cache"])
        let warnings = blocked.run.stderr.split(separator: "\n").filter { $0.contains("warning: bake cache") }
        #expect(warnings.count == 1 && warnings[0].contains("blocker/cache"), "\(blocked.run.stderr)")
        #expect(blocked.bytes == uncached.bytes)
        let blockedCounts = try counts(blocked.run)
        #expect(blockedCounts.cached == 0)

        // A read-only folder, as a user (not root) finds it.
        try FileManager.default.createDirectory(atPath: directory.file("readonly"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.file("readonly"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.file("readonly")) }
        let readOnly = try await CommandRunner.preloadBoundByPermissions(
            ["bake"] + Self.sources + ["-o", "readonly.bake", "--gpu", "bc", "--quality", "fast", "--bake-cache", "readonly"], in: directory.path)
        #expect(readOnly.status == 0, "\(readOnly.stderr)")
        #expect(readOnly.stderr.split(separator: "\n").filter { $0.contains("warning: bake cache") }.count == 1, "\(readOnly.stderr)")
        let readOnlyBytes = try read("readonly.bake")
        #expect(readOnlyBytes == uncached.bytes)
    }

    @Test func fourShardsInFourProcessesThenAPlainBakeAssembleTheSamePackEncodingNothing() async throws {
        let oneMachine = try await bake("one.bake", ["--no-bake-cache"])
        async let first = bake("shard.bake", ["--bake-cache", "cache", "--shard", "1/4"])
        async let second = bake("shard.bake", ["--bake-cache", "cache", "--shard", "2/4"])
        async let third = bake("shard.bake", ["--bake-cache", "cache", "--shard", "3/4"])
        async let fourth = bake("shard.bake", ["--bake-cache", "cache", "--shard", "4/4"])
        let shards = try await [first, second, third, fourth]
        var encoded = 0
        for (number, shard) in shards.enumerated() {
            let line = try #require(
                shard.run.stdout.split(separator: "\n").first { $0.hasPrefix("Shard \(number + 1)/4: encoded ") }, "\(shard.run.stdout)")
            encoded += try #require(Int(line.split(separator: " ")[3]))
            #expect(shard.bytes.isEmpty, "a shard writes no pack")
        }
        let assembled = try await bake("assembled.bake", ["--bake-cache", "cache"])
        let (cached, assemblyEncoded) = try counts(assembled.run)
        #expect(assemblyEncoded == 0 && cached == encoded, "\(assembled.run.stdout)")
        #expect(shards.filter { !$0.run.stdout.contains("encoded 0 textures") }.count >= 2, "the textures spread over the shards")
        #expect(assembled.bytes == oneMachine.bytes)
    }

    @Test func aSecondMachinesEmptyCacheFillsFromTheSharedOneAndTheDefaultIsTheUsersCacheFolder() async throws {
        let home = ["XDG_CACHE_HOME": directory.file("xdg")]
        let cold = try await bake("cold.bake", [], environment: home)
        let textures = try counts(cold.run).encoded
        let records = try FileManager.default.contentsOfDirectory(atPath: directory.file("xdg/preload/bake/ac"))
        #expect(records.count == textures, "the default cache is $XDG_CACHE_HOME/preload/bake")
        let shared = "file://" + directory.file("xdg/preload/bake")
        let second = try await bake("second.bake", ["--bake-cache", "machine2", "--bake-cache", shared])
        let secondCounts = try counts(second.run)
        #expect(
            secondCounts.cached == textures && secondCounts.encoded == 0 && second.run.stdout.contains("(0 local, \(textures) shared)"),
            "\(second.run.stdout)")
        #expect(second.bytes == cold.bytes)
        let local = try await bake("local.bake", ["--bake-cache", "machine2"])
        let localCounts = try counts(local.run)
        #expect(localCounts.cached == textures && localCounts.encoded == 0 && !local.run.stdout.contains("shared)"), "\(local.run.stdout)")
    }

    @Test(arguments: [
        ["--shard", "5/4"], ["--shard", "0/4"], ["--shard", "two"], ["--no-bake-cache", "--shard", "1/2"],
        ["--no-bake-cache", "--bake-cache", "cache"], ["--bake-cache", "a", "--bake-cache", "b"], ["--bake-cache", "ftp://localhost/cache"],
        ["--bake-cache", "http://localhost/cache?x=1"],
    ])
    func cacheOptionsThatMeanNothingAreUsageErrors(_ options: [String]) async throws {
        let run = try await CommandRunner.preload(["bake", "assets/sprites", "-o", "never.bake", "--gpu", "bc"] + options, in: directory.path)
        #expect(run.status == 64, "\(options): \(run.stderr)")
        let plain = try await CommandRunner.preload(["bake", "assets/sprites", "-o", "never.bake", "--bake-cache", "cache"], in: directory.path)
        #expect(plain.status == 64 && plain.stderr.contains("need --gpu"), "\(plain.stderr)")
    }
}
