import Foundation
import PreloadTestSupport
import Testing

/// A debug-built `preload` (what `swift run` and `swift test` build) says once on stderr, as a
/// GPU bake starts, that it is a debug build and how to install the release one; short work says
/// nothing.
@Suite struct DebugBuildNoticeTests {
    static let notice = "note: this preload is a debug build"

    @Test func aGPUBakeSaysOnceThatTheReleaseBuildIsFasterAndShortWorkDoesNot() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("art/tile.png", PNGFixture.rgba(width: 8, height: 8, pixels: PNGFixture.noise(width: 8, height: 8, seed: 1)))

        let bake = try await CommandRunner.preload(["bake", "art", "-o", "gpu.bake", "--gpu", "bc", "--quality", "fast"], in: directory.path)
        #expect(bake.status == 0, "\(bake.stderr)")
        let notices = bake.stderr.components(separatedBy: Self.notice).count - 1
        #if DEBUG
            #expect(notices == 1, "\(bake.stderr)")
            #expect(bake.stderr.contains("x slower than in a release build") && bake.stderr.contains("./install-preload"), "\(bake.stderr)")
        #else
            #expect(notices == 0, "a release build says nothing: \(bake.stderr)")
        #endif
        #expect(!bake.stdout.contains("debug build"), "stdout stays the bake's own: \(bake.stdout)")

        // Short work (a load, a bake without --gpu): no notice.
        let load = try await CommandRunner.preload(["art"], in: directory.path)
        let plainBake = try await CommandRunner.preload(["bake", "art", "-o", "plain.bake"], in: directory.path)
        #expect(load.status == 0 && plainBake.status == 0)
        #expect(!load.stderr.contains(Self.notice) && !plainBake.stderr.contains(Self.notice), "\(load.stderr)\(plainBake.stderr)")
    }
}
