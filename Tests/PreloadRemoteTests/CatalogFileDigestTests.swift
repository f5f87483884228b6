import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// A catalog's file digest (core's `SHA256` over the file, read in blocks) is what `sha256sum`
/// prints.
@Suite struct CatalogFileDigestTests {
    @Test func aFileHashesAsSha256sumSaysThroughTheCatalogsReader() throws {
        // Three 1 MiB blocks and a tail, read as a catalog reads a file.
        let directory = try TemporaryDirectory()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<(3 << 20) + 17).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try directory.write("file.bin", bytes)
        let (size, digest) = try RemoteCatalog.digestOfFile(directory.file("file.bin"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [directory.file("file.bin")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(size == Int64(bytes.count))
        #expect(digest == printed.split(separator: " ").first.map(String.init), "sha256sum: \(printed)")
    }
}
