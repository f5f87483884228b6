import Foundation
import Preload
import PreloadTestSupport
import Testing

/// `preload bake --gpu --bake-cache URL` against nginx with WebDAV on loopback, each bake a
/// separate `preload` process with a local cache of its own (a machine): the second machine
/// takes every texture from the shared cache, a flipped byte on the server is named, encoded
/// again and replaced there, and a server that is down costs one warning, never the bake
/// (docs/bake-format.md, "The bake cache").
@Suite(.enabled(if: NginxServer.isInstalled, "nginx is not installed (.ci/system-packages install remote)"))
struct BakeCacheNginxTests {
    @Test func aSecondMachineTakesEveryTextureFromTheServerWhichCannotPoisonNorStopABake() async throws {
        let folder = try TemporaryDirectory("preload-bake-cache-nginx")
        defer { folder.remove() }
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sample-assets").path
        for part in ["sprites", "tiles", "atlases"] {
            try FileManager.default.createDirectory(atPath: folder.file("assets"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: samples + "/" + part, toPath: folder.file("assets/" + part))
        }
        try FileManager.default.createDirectory(atPath: folder.file("www"), withIntermediateDirectories: true)
        let root = folder.file("www")
        let nginx = try await offThePool {
            try NginxServer.start(
                root: root, serverDirectives: "location /cache/ { dav_methods PUT; create_full_put_path on; client_max_body_size 0; }")
        }
        defer { nginx.stop() }
        let url = nginx.baseURL.absoluteString + "/cache"

        func bake(_ pack: String, _ options: [String]) async throws -> (output: String, errors: String, bytes: [UInt8]) {
            let sources = ["sprites", "tiles", "atlases"].map { folder.file("assets/" + $0) }
            let run = try await PreloadChild(
                ["bake"] + sources + ["--root", folder.file("assets"), "-o", folder.file(pack), "--gpu", "bc", "--quality", "fast"] + options
            ).finished()
            try #require(run.status == 0, "\(options): \(run.errors)")
            return (run.output, run.errors, [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file(pack)))))
        }
        let uncached = try await bake("uncached.bake", ["--no-bake-cache"])
        let first = try await bake("first.bake", ["--bake-cache", folder.file("machine1"), "--bake-cache", url])
        let line = try #require(first.output.split(separator: "\n").first { $0.hasPrefix("Bake cache: 0 textures from the cache, ") })
        let textures = try #require(Int(line.split(separator: " ")[7]), "\(line)")
        #expect(textures >= 8 && first.bytes == uncached.bytes && line.contains("in front of \(url)"), "\(line)")

        let second = try await bake("second.bake", ["--bake-cache", folder.file("machine2"), "--bake-cache", url])
        #expect(
            second.output.contains("Bake cache: \(textures) textures from the cache (0 local, \(textures) shared), 0 encoded"), "\(second.output)")
        #expect(second.bytes == uncached.bytes)

        // A flipped byte in one of the server's entries: named with the server, encoded again, replaced there.
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.file("www/cache/cas")).sorted()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("www/cache/cas/\(entries[0])"))))
        bytes[bytes.count - 1] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("www/cache/cas/\(entries[0])")))
        let third = try await bake("third.bake", ["--bake-cache", folder.file("machine3"), "--bake-cache", url])
        let refused = third.output.split(separator: "\n").filter { $0.contains("do not match their SHA-256") }
        #expect(refused.count == 1 && refused[0].contains(url) && refused[0].contains(entries[0]), "\(third.output)")
        #expect(third.output.contains("(0 local, \(textures - 1) shared), 1 encoded") && third.bytes == uncached.bytes, "\(third.output)")
        let replaced = try SHA256.hash(data: Data(contentsOf: URL(fileURLWithPath: folder.file("www/cache/cas/\(entries[0])")))).hexString
        #expect(replaced == entries[0], "the server's entry was replaced")

        // The server down: one warning, every texture encoded, the same pack.
        nginx.stop()
        let fourth = try await bake("fourth.bake", ["--bake-cache", folder.file("machine4"), "--bake-cache", url])
        let warnings = fourth.errors.split(separator: "\n").filter { $0.contains("warning: bake cache") }
        #expect(warnings.count == 1 && warnings[0].contains(url), "\(fourth.errors)")
        #expect(fourth.output.contains("0 textures from the cache, \(textures) encoded") && fourth.bytes == uncached.bytes, "\(fourth.output)")
    }
}
