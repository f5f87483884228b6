import Foundation
import PreloadTestSupport
import Testing

@testable import Preload

/// SHA-256 through libcrypto opened at run time: FIPS 180's vectors, any split of the input, a
/// copy that goes on on its own, and a typed error naming the package when the library cannot be
/// opened.
@Suite struct SHA256Tests {
    static func hex(_ text: String) throws -> String {
        try SHA256.hash(data: Array(text.utf8)).hexString
    }

    @Test func theStandardVectors() throws {
        #expect(try Self.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try Self.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            try Self.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            try Self.hex(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func anySplitOfTheBytesAndACopyGoOnFromTheSameState() throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        let whole = try SHA256.hash(data: bytes)
        var hasher = SHA256()
        var start = 0
        for size in [0, 1, 63, 64, 65, 127, 1000, 3333] {
            bytes[start..<start + size].withUnsafeBytes { hasher.update(bufferPointer: $0) }
            start += size
        }
        var copy = hasher  // a kept partial download's state
        bytes[start...].withUnsafeBytes { hasher.update(bufferPointer: $0) }
        #expect(try hasher.finalize() == whole)
        #expect(try hasher.finalize() == whole, "finalizing leaves the value as it was")
        #expect(try copy.finalize() == SHA256.hash(data: bytes[..<start]), "the copy did not see the original's later bytes")
        bytes[start...].withUnsafeBytes { copy.update(bufferPointer: $0) }
        #expect(try copy.finalize() == whole)
    }

    @Test func withoutLibcryptoTheHashIsATypedErrorNamingThePackage() throws {
        let missing = LibCrypto.opened(fileNames: ["libcrypto.so.0-not-installed"])
        var hasher = SHA256(library: missing)
        [1, 2, 3].withUnsafeBytes { hasher.update(bufferPointer: $0) }
        #expect(throws: MissingSystemLibrary.self) { try hasher.finalize() }
        do {
            _ = try hasher.finalize()
        } catch {
            #expect(error.library == "libcrypto" && error.package == "libssl3", "\(error)")
            #expect("\(error)".contains("apt-get install libssl3"), "\(error)")
        }
    }
}
