import Foundation
import Testing

/// A machine without libwebp's run-time library: the command still starts, the WebP fails by
/// name with the package to install, and the PNG beside it loads. The library is hidden from
/// the dynamic linker by mounting an empty file over it in a mount namespace of the command's
/// own (`unshare -m`), which needs root: CI runs as root.
@Suite struct MissingCodecLibraryTests {
    /// Where Debian keeps libwebp.so.7 on this machine, if it does and the test may hide it.
    static let libwebp: String? = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
        return ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
            .map { "\($0)/libwebp.so.7" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }()

    @Test(.enabled(if: libwebp != nil, "needs root, unshare and libwebp.so.7 to hide"))
    func aWebPFailsByNameWithThePackageToInstallAndThePNGLoads() async throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let directory = NSTemporaryDirectory() + "missing-codec-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(
            atPath: tests.appendingPathComponent("PreloadWebPTests/Fixtures/cwebp-lossless.webp").path, toPath: directory + "/gem.webp")
        try FileManager.default.copyItem(
            atPath: tests.deletingLastPathComponent().appendingPathComponent("sample-assets/sprites/hero.png").path, toPath: directory + "/hero.png")

        let preload = CommandRunner.binary("preload").path
        let run = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-m", "sh", "-c", "mount --bind /dev/null \(Self.libwebp!) && exec \"$0\" \"$@\"", preload, directory, "--json"],
            in: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let assets = try #require(run.json?["assets"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: assets.map { ($0["path"] as! String, $0) })
        #expect(byName[directory + "/hero.png"]?["status"] as? String == "loaded")
        let webp = try #require(byName[directory + "/gem.webp"])
        #expect(webp["errorCategory"] as? String == "libraryMissing")
        #expect(
            (webp["error"] as? String)?.contains("needs libwebp (libwebp.so.7), which this machine lacks: install the package libwebp7") == true,
            "\(webp)")
    }
}
