import Foundation
import Preload
import PreloadTestSupport
import Testing

/// `preload bake check --gpu ...` with the bake cache (docs/bake-format.md, "The bake cache"):
/// a stale texture whose source was saved again with the same pixels is one a re-bake takes from
/// the cache, and the check says so; one with new pixels is not; the re-bake bears it out.
@Suite struct BakeCheckCacheTests {
    let directory: TemporaryDirectory
    static let gpu = ["--gpu", "bc", "--quality", "fast"]

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: PackLoadCommandTests.sampleAssets + "/sprites", toPath: directory.file("assets/sprites"))
    }

    func preload(_ arguments: [String]) async throws -> CommandRunner.Run {
        try await CommandRunner.run(CommandRunner.binary("preload"), arguments, in: directory.path)
    }

    @Test func aStaleTextureWithTheSamePixelsIsOneARebakeTakesFromTheCache() async throws {
        let baked = try await preload(["bake", "assets/sprites", "-o", "level.bake", "--bake-cache", "cache"] + Self.gpu)
        try #require(baked.status == 0, "\(baked.stderr)")
        // hero.png saved again with the same pixels (a comment chunk added before IEND); coin.png with new ones.
        let hero = "assets/sprites/hero.png", coin = "assets/sprites/coin.png"
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.file(hero))))
        let resaved = original.dropLast(12) + PNGFixture.chunk("tEXt", Array("Comment\0saved again".utf8)) + original.suffix(12)
        try directory.write(hero, Array(resaved))
        try directory.write(coin, PNGFixture.noisePNG(side: 32, seed: 11))

        let plain = try await preload(["bake", "check", "level.bake"])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("stale   \(hero) (\(hero) changed)\n") && !plain.stdout.contains("bake cache"), "\(plain.stdout)")

        let check = try await preload(["bake", "check", "level.bake", "--bake-cache", "cache"] + Self.gpu)
        #expect(check.status == 1, "still stale: \(check.stdout) \(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("stale   \(hero) (\(hero) changed; in the bake cache: a re-bake encodes nothing)"), "\(check.stdout)")
        #expect(lines.contains("stale   \(coin) (\(coin) changed)"), "\(check.stdout)")
        #expect(lines.last?.hasSuffix(", 2 stale (1 in the bake cache)") == true, "\(check.stdout)")

        // Other settings are other keys: nothing is in the cache under them.
        let medium = try await preload(["bake", "check", "level.bake", "--bake-cache", "cache", "--gpu", "bc"])
        #expect(medium.status == 1 && !medium.stdout.contains("in the bake cache"), "\(medium.stdout)")
        let empty = try await preload(["bake", "check", "level.bake", "--bake-cache", "empty"] + Self.gpu)
        #expect(empty.status == 1 && !empty.stdout.contains("in the bake cache"), "\(empty.stdout)")

        // The re-bake bears it out: the coin alone is encoded.
        let rebaked = try await preload(["bake", "assets/sprites", "-o", "level.bake", "--bake-cache", "cache"] + Self.gpu)
        try #require(rebaked.status == 0, "\(rebaked.stderr)")
        #expect(rebaked.stdout.contains("from the cache") && rebaked.stdout.contains(", 1 encoded"), "\(rebaked.stdout)")
        let current = try await preload(["bake", "check", "level.bake", "--bake-cache", "cache"] + Self.gpu)
        #expect(current.status == 0 && current.stdout.hasSuffix("all current\n"), "\(current.stdout)")
    }

    @Test func theCacheOptionsNeedTheGPUOptions() async throws {
        let baked = try await preload(["bake", "assets/sprites", "-o", "level.bake"])
        try #require(baked.status == 0, "\(baked.stderr)")
        let run = try await preload(["bake", "check", "level.bake", "--bake-cache", "cache"])
        #expect(run.status == 64 && run.stderr.contains("need --gpu"), "\(run.stderr)")
    }
}
