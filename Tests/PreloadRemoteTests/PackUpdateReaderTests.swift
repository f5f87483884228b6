import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// A second process reading a pack while the updater replaces it, over and over: a Python child
/// maps the pack once and checks the mapping's CRC-32 again and again (a SIGBUS would end it by
/// its signal), and opens the path anew each time, whose bytes must be one whole version or the
/// other, never a mix.
extension PackPatchNginxTests {
    static let reader = """
        import mmap, os, sys, zlib
        path, stop, old, new = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        with open(path, "rb") as f:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if zlib.crc32(mapping) != old:
            print("not the old pack", flush=True); sys.exit(4)
        print("ready", flush=True)
        mapped = opened = 0
        while not os.path.exists(stop):
            if zlib.crc32(mapping) != old:
                print("the mapping changed", flush=True); sys.exit(2)
            mapped += 1
            with open(path, "rb") as f:
                crc = zlib.crc32(f.read())
            if crc not in (old, new):
                print("a mixed pack", crc, flush=True); sys.exit(3)
            opened += 1
        print("read", mapped, opened, flush=True)
        """

    @Test func aSecondProcessReadingTheOldPackSeesOnlyWholeVersions() async throws {
        let (old, new) = try await bakeTwice()
        let oldBytes = try Array(Data(contentsOf: URL(fileURLWithPath: old)))
        let crc = { (bytes: [UInt8]) in bytes.withUnsafeBytes { BakedChecksum.crc32($0) } }
        let stop = work.file("stop")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = ["python3", "-c", Self.reader, old, stop, String(crc(oldBytes)), String(crc(new))]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        defer {
            _ = FileManager.default.createFile(atPath: stop, contents: nil)
            child.waitUntilExit()
        }
        let ready = try await offThePool { output.fileHandleForReading.readLine() }
        #expect(ready == "ready")

        // Six updates in place: to the new pack, back to the old, and so on.
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let updater = PackUpdater(fetcher: try fixture.fetcher())
        for round in 0..<6 {
            try fixture.serve("levels/level1.bake", round % 2 == 0 ? new : oldBytes)
            let update = try await updater.check(url, installed: old)
            #expect(update.kind == .patch)
            try await updater.apply(update)
        }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        let last = try await offThePool { () -> String? in
            let line = output.fileHandleForReading.readLine()
            child.waitUntilExit()
            return line
        }
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(last ?? "")")
        let counts = (last ?? "").split(separator: " ").dropFirst().compactMap { Int($0) }
        #expect(last?.hasPrefix("read ") == true && counts.count == 2 && counts.allSatisfy { $0 > 0 }, "\(last ?? "")")
        print("A second process during 6 updates in place: \(last ?? "")")
    }
}

extension FileHandle {
    /// The next line (without its newline), read a byte at a time; `nil` at the end.
    fileprivate func readLine() -> String? {
        var bytes: [UInt8] = []
        while let byte = try? read(upToCount: 1), let first = byte.first {
            if first == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
