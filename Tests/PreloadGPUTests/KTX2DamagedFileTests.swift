import Preload
import PreloadGPU
import PreloadTestSupport
import Testing

@Suite struct KTX2DamagedFileTests {
    /// An 8 x 8 sRGB BC7 file with 4 levels: DFD at 80 + 4 x 24 = 176 (44 bytes), key/value
    /// data at 220.
    let valid: [UInt8]
    let packed: [UInt8]

    init() throws {
        let texture = KTX2Fixtures.texture(.bc7, width: 8, height: 8, mipLevelCount: 4)
        valid = try KTX2File(texture: texture).encoded()
        packed = try KTX2File(texture: texture, supercompression: .zstd).encoded()
    }

    private func error(reading bytes: [UInt8], limits: ImageLimits = ImageLimits()) -> KTX2Error? {
        do {
            _ = try KTX2File(decoding: bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachDamageIsNamed() {
        #expect(error(reading: valid) == nil)
        var identifier = valid
        identifier[1] = 0x4C
        #expect(error(reading: identifier) == .badIdentifier)
        #expect(error(reading: Array(valid.prefix(50))) == .truncated(part: "header", needed: 80, available: 50))
        #expect(error(reading: Array(valid.prefix(100))) == .truncated(part: "level index", needed: 176, available: 100))
        #expect(error(reading: KTX2Fixtures.setting(valid, 12, to: 9999)) == .unknownFormat(vkFormat: 9999))
        #expect(error(reading: KTX2Fixtures.setting(valid, 12, to: 131)) == .unknownFormat(vkFormat: 131))  // BC1 without alpha
        #expect(error(reading: KTX2Fixtures.setting(valid, 16, to: 2)) == .invalidHeader(field: "typeSize", value: 2, expected: "1 for bc7"))
        #expect(error(reading: KTX2Fixtures.setting(valid, 24, to: 0)) == .unsupportedTextureType("1D"))
        #expect(error(reading: KTX2Fixtures.setting(valid, 36, to: 6)) == .unsupportedTextureType("cube map"))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, 40, to: 5)) == .invalidHeader(field: "levelCount", value: 5, expected: "at most 4 for 8x8"))
        #expect(error(reading: KTX2Fixtures.setting(valid, 44, to: 1)) == .unsupportedSupercompression(scheme: 1))
        #expect(error(reading: KTX2Fixtures.setting(valid, 52, to: 0)) == .missingDataFormatDescriptor)
        #expect(
            error(reading: KTX2Fixtures.setting(valid, 48, to: 4000))
                == .sectionOutsideFile(part: "Data Format Descriptor", offset: 4000, length: 44, fileSize: valid.count))
        // Level 0 (64 bytes, the last in the file) moved past the end; then given the wrong length.
        #expect(
            error(reading: KTX2Fixtures.setting64(valid, 80, to: UInt64(valid.count)))
                == .levelOutsideFile(level: 0, offset: UInt64(valid.count), length: 64, fileSize: valid.count))
        #expect(error(reading: KTX2Fixtures.setting64(valid, 88, to: 48)) == .levelLengthMismatch(level: 0, length: 48, expected: 64))
        #expect(error(reading: KTX2Fixtures.setting64(valid, 96, to: 80)) == .levelLengthMismatch(level: 0, length: 80, expected: 64))
        let levelOffset = KTX2Fixtures.u64(valid, 80)
        #expect(
            error(reading: KTX2Fixtures.setting64(valid, 80, to: levelOffset - 4))
                == .levelMisaligned(level: 0, offset: levelOffset - 4, alignment: 16))
        #expect(
            error(reading: KTX2Fixtures.setting64(valid, 80, to: 32))
                == .levelOutsideFile(level: 0, offset: 32, length: 64, fileSize: valid.count))  // over the header
    }

    @Test func descriptorDamageIsNamed() {
        let dfd = 176
        #expect(error(reading: KTX2Fixtures.setting(valid, dfd, to: 40)) == .invalidDataFormatDescriptor("dfdTotalSize is 40, dfdByteLength 44"))
        // colorModel BC1A in a BC7 file; transfer LINEAR with an _SRGB vkFormat; bytesPlane0 8.
        #expect(
            error(reading: KTX2Fixtures.setting(valid, dfd + 12, to: 0x0002_0180))
                == .dataFormatDescriptorMismatch(field: "colorModel", found: 128, expected: 134))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, dfd + 12, to: 0x0001_0186))
                == .dataFormatDescriptorMismatch(field: "transferFunction", found: 1, expected: 2))
        #expect(error(reading: KTX2Fixtures.setting(valid, dfd + 12, to: 0x0005_0186)) == .unsupportedTransferFunction(5))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, 12, to: 145))  // BC7 _UNORM with an sRGB transfer function
                == .dataFormatDescriptorMismatch(field: "transferFunction", found: 2, expected: 1))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, dfd + 20, to: 8))
                == .dataFormatDescriptorMismatch(field: "bytesPlane0", found: 8, expected: 16))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, dfd + 28, to: 0x003F_0000))
                == .dataFormatDescriptorMismatch(field: "sample 0 bitLength", found: 63, expected: 127))
        // A vendor's block in place of the basic one.
        #expect(error(reading: KTX2Fixtures.setting(valid, dfd + 4, to: 0x0000_0001)) == .missingDataFormatDescriptor)
    }

    @Test func keyValueDamageIsNamed() {
        let kvd = 220
        // "KTXorientation" -> "KTXorientatioo": still before "KTXwriter"; the value is "rd".
        var renamed = valid
        renamed[kvd + 4] = UInt8(ascii: "l")  // "lTXorientation" sorts after "KTXwriter"
        #expect(error(reading: renamed) == .invalidKeyValueData("key \"KTXwriter\" is out of order or repeated"))
        var flipped = valid
        flipped[kvd + 4 + 15] = UInt8(ascii: "l")  // "rd" -> "ld": columns right to left
        #expect(error(reading: flipped) == .unsupportedOrientation("ld"))
        #expect(
            error(reading: KTX2Fixtures.setting(valid, kvd, to: 400))
                == .invalidKeyValueData("the entry at byte \(kvd) claims 400 bytes, \(KTX2Fixtures.u32(valid, 60) - 4) remain"))
    }

    @Test func zstdDamageIsNamed() {
        #expect(error(reading: packed) == nil)
        let levelOffset = Int(KTX2Fixtures.u64(packed, 80)), levelLength = Int(KTX2Fixtures.u64(packed, 88))
        // The frame's checksum-less content changed: zstd notices the block is corrupt, or the
        // size no longer matches; a frame cut short never inflates to the level's bytes.
        let cut = KTX2Fixtures.setting64(packed, 88, to: UInt64(levelLength - 3))
        guard case .damagedLevel(level: 0, _) = error(reading: cut) else {
            Issue.record("a cut zstd frame gave \(String(describing: error(reading: cut)))")
            return
        }
        var notZstd = packed
        notZstd[levelOffset] ^= 0xFF  // the frame's magic number
        guard case .damagedLevel(level: 0, let detail) = error(reading: notZstd) else {
            Issue.record("a damaged zstd magic number gave \(String(describing: error(reading: notZstd)))")
            return
        }
        #expect(detail.contains("zstd"))
        // A zstd level whose uncompressed length is not the level's.
        #expect(error(reading: KTX2Fixtures.setting64(packed, 96, to: 65)) == .levelLengthMismatch(level: 0, length: 65, expected: 64))
    }

    @Test func limitsRefuseBeforeAllocating() {
        let small = ImageLimits(maxWidth: 4, maxHeight: 4)
        #expect(error(reading: valid, limits: small) == .tooLarge(width: 8, height: 8, byteCount: .max, limits: small))
        let few = ImageLimits(maxDecodedBytes: 64)
        #expect(error(reading: valid, limits: few) == .tooLarge(width: 8, height: 8, byteCount: 112, limits: few))
        #expect(error(reading: valid, limits: few)?.category == .limitExceeded)
    }

    @Test func writingRefusesWhatKTX2CannotHold() {
        let empty = Texture(width: 0, height: 4, pixelFormat: .rgba8, alphaMode: .straight, pixels: [])
        #expect(throws: KTX2Error.emptyTexture(width: 0, height: 4)) { try KTX2File(texture: empty).encoded() }
        let texture = KTX2Fixtures.texture(.rgba8, width: 2, height: 2)
        for key in ["", "KTXmine", "ktxown", "a\0b"] {
            #expect(throws: KTX2Error.invalidKey(key)) { try KTX2File(texture: texture, keyValues: [key: [1]]).encoded() }
        }
    }

    /// Every prefix of a file fails with a typed error; random damage to any byte either reads
    /// (a byte of level data changed) or fails with a typed error. Never a trap.
    @Test func cutAndDamagedFilesNeverTrap() throws {
        for file in [valid, packed] {
            for length in 0..<file.count {
                #expect(error(reading: Array(file.prefix(length))) != nil, "a file cut to \(length) bytes read")
            }
            var random = SeededRandom(seed: UInt64(file.count))
            for _ in 0..<1500 {
                var damaged = file
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    damaged[Int(random.next() % UInt64(file.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                do {
                    let read = try KTX2File(decoding: damaged)
                    #expect(read.texture.levels.last.map { $0.offset + $0.byteCount } == read.texture.pixels.count)
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
        }
    }
}
