import Foundation
import Preload
import PreloadGPU
import PreloadKTX2
import PreloadTestSupport
import Testing

/// Damaged KTX2 files fail with a typed error naming the part at fault, never a trap: cut at
/// every length, a level index pointing elsewhere, Zstandard data that does not inflate to its
/// level.
@Suite struct DamagedFileTests {
    static let files = [
        "valid_R8G8B8A8_SRGB_2D_MIP.ktx2", "valid_R8G8B8A8_UNORM_2D_ZSTD_9.ktx2", "valid_ASTC_4x4_UNORM_BLOCK_2D_ZSTD_9.ktx2",
        "output_R8G8B8A8_SRGB_2D_BLZE_to_bc7.ktx2", "valid_R16G16B16A16_UNORM_2D.ktx2", "valid_R8G8B8A8_SRGB_2D_BLZE.ktx2",
    ]

    /// The error loading `bytes` throws, which must be one of the plugin's typed errors.
    func failure(_ bytes: [UInt8]) -> (any AssetFailure)? {
        do {
            _ = try KTX2Fixtures.texture(bytes)
            return nil
        } catch let error as KTX2Error {
            return error
        } catch let error as KTX2LoadError {
            return error
        } catch {
            Issue.record("an untyped error: \(error)")
            return nil
        }
    }

    @Test(arguments: files)
    func everyPrefixFailsWithATypedError(_ name: String) {
        let bytes = KTX2Fixtures.bytes(name)
        for length in 0..<bytes.count {
            #expect(failure(Array(bytes.prefix(length))) != nil, "\(name) cut to \(length) bytes loaded")
        }
    }

    @Test func aCutFileNamesWhereItEnds() {
        let bytes = KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D_MIP.ktx2")  // 4 levels: the index ends at 176
        #expect(failure([]) as? KTX2Error == .truncated(part: "identifier", needed: 80, available: 0))
        #expect(failure(Array(bytes.prefix(6))) as? KTX2Error == .truncated(part: "identifier", needed: 80, available: 6))
        #expect(failure(Array(bytes.prefix(40))) as? KTX2Error == .truncated(part: "header", needed: 80, available: 40))
        #expect(failure(Array(bytes.prefix(100))) as? KTX2Error == .truncated(part: "level index", needed: 176, available: 100))
        let dfd = Int(KTX2Fixtures.u32(bytes, 48))
        guard case .sectionOutsideFile(let part, _, _, _)? = failure(Array(bytes.prefix(dfd + 8))) as? KTX2Error else {
            Issue.record("a file cut inside its DFD")
            return
        }
        #expect(part == "Data Format Descriptor")
        let level0 = Int(KTX2Fixtures.u64(bytes, 80))  // stored last
        #expect(
            failure(Array(bytes.prefix(level0 + 100))) as? KTX2Error
                == .levelOutsideFile(level: 0, offset: UInt64(level0), length: 256, fileSize: level0 + 100))
    }

    @Test func aLevelIndexPointingElsewhereFailsNamingTheLevel() {
        let bytes = KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D_MIP.ktx2")
        var outside = bytes
        outside.replaceSubrange(80 + 24..<80 + 32, with: withUnsafeBytes(of: UInt64(bytes.count - 4).littleEndian, Array.init))
        #expect(failure(outside) as? KTX2Error == .levelOutsideFile(level: 1, offset: UInt64(bytes.count - 4), length: 64, fileSize: bytes.count))
        var overHeader = bytes
        overHeader.replaceSubrange(80 + 48..<80 + 56, with: withUnsafeBytes(of: UInt64(16).littleEndian, Array.init))
        #expect(failure(overHeader) as? KTX2Error == .levelOutsideFile(level: 2, offset: 16, length: 16, fileSize: bytes.count))
        var longer = bytes
        longer.replaceSubrange(80 + 8..<80 + 16, with: withUnsafeBytes(of: UInt64(260).littleEndian, Array.init))
        #expect(failure(longer) as? KTX2Error == .levelLengthMismatch(level: 0, length: 260, expected: 256))
    }

    @Test func zstandardDataThatDoesNotInflateToItsLevelFails() {
        let bytes = KTX2Fixtures.bytes("valid_R8G8B8A8_UNORM_2D_ZSTD_9.ktx2")
        let start = Int(KTX2Fixtures.u64(bytes, 80)), length = Int(KTX2Fixtures.u64(bytes, 88))
        var badMagic = bytes
        badMagic[start] ^= 0xFF
        guard case .damagedLevel(level: 0, let detail)? = failure(badMagic) as? KTX2Error else {
            Issue.record("a zstd frame without its magic number loaded")
            return
        }
        #expect(!detail.isEmpty)
        var cut = bytes  // the frame's last bytes left out of the level
        cut.replaceSubrange(80 + 8..<80 + 16, with: withUnsafeBytes(of: UInt64(length - 3).littleEndian, Array.init))
        guard case .damagedLevel(level: 0, _)? = failure(cut) as? KTX2Error else {
            Issue.record("a zstd frame cut short loaded")
            return
        }
    }

    /// Seeded random damage to every fixture, a few bytes at a time: each load gives a texture
    /// or a typed error (a trap would end the test run).
    @Test func randomDamageNeverTraps() throws {
        var random = SeededRandom(seed: 49)
        let names = try FileManager.default.contentsOfDirectory(atPath: KTX2Fixtures.folder.path).filter { $0.hasSuffix(".ktx2") }
        var failed = 0, loaded = 0
        for name in names.sorted() {
            let bytes = KTX2Fixtures.bytes(name)
            for _ in 0..<300 {
                var damaged = bytes
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    // Header and index bytes most of the time: where the offsets and sizes are.
                    let index = Bool.random(using: &random) ? min(at, 80 + 24 * 4) : at
                    damaged[index] =
                        Bool.random(using: &random)
                        ? UInt8.random(in: 0...255, using: &random) : [0, 0xFF, 0x80, 0x7F].randomElement(using: &random)!
                }
                if failure(damaged) == nil { loaded += 1 } else { failed += 1 }
            }
        }
        #expect(failed > 0 && failed + loaded == names.count * 300)
    }
}
