import CPreloadASTC
import Preload
import Testing

@testable import PreloadGPU

@Suite struct ASTCTests {
    /// A picture 1 pixel short of whole blocks across and down at every block size, so that the
    /// edge blocks are partly outside it.
    static let picture = GPUFixtures.picture(width: 39, height: 23)

    @Test(
        .enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"),
        arguments: [
            (ASTCBlockSize.fourByFour, 38.0), (.fiveByFive, 33.0), (.sixBySix, 31.0), (.eightByEight, 27.0),
        ])
    func encodedBlocksDecodeCloseToThePicture(blockSize: ASTCBlockSize, floor: Double) throws {
        let encoder = try ASTCEncoder(blockSize: blockSize, quality: .fast)
        let blocks = try encoder.encode(Self.picture)
        #expect(blocks.count == blockSize.pixelFormat.byteCount(width: 39, height: 23))
        let decoded = try ASTCDecoder(blockSize: blockSize).decode(blocks, width: 39, height: 23)
        let psnr = GPUFixtures.psnr(Self.picture, decoded)
        #expect(psnr > floor, "\(blockSize.rawValue): \(psnr) dB")
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func sRGBAndLinearProfilesEachRoundTrip() throws {
        var blocks: [ColorSpace: [UInt8]] = [:]
        for colorSpace in [ColorSpace.sRGB, .linear] {
            blocks[colorSpace] = try ASTCEncoder(quality: .fast, colorSpace: colorSpace).encode(Self.picture)
            let decoded = try ASTCDecoder(colorSpace: colorSpace).decode(blocks[colorSpace]!, width: 39, height: 23)
            #expect(GPUFixtures.psnr(Self.picture, decoded) > 38, "\(colorSpace)")
        }
        // The profile reaches astcenc on both sides: the blocks differ, and sRGB blocks decode
        // otherwise in the linear profile (their endpoints expand differently).
        #expect(blocks[.sRGB] != blocks[.linear])
        let asSRGB = try ASTCDecoder(colorSpace: .sRGB).decode(blocks[.sRGB]!, width: 39, height: 23)
        #expect(try ASTCDecoder(colorSpace: .linear).decode(blocks[.sRGB]!, width: 39, height: 23) != asSRGB)
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func threadsShareTheWorkNotTheResult() throws {
        let one = try ASTCEncoder(quality: .fast, threadCount: 1).encode(Self.picture)
        let encoder = try ASTCEncoder(quality: .fast, threadCount: 3)
        // Twice with the same encoder: its context is reset between images and reused.
        #expect(try encoder.encode(Self.picture) == one)
        #expect(try encoder.encode(Self.picture) == one)
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func alphaWeightingSpendsBitsOnWhatIsSeen() throws {
        // Half the pixels of every block invisible, with loud colour under them.
        var pixels = Self.picture.pixels
        for pixel in 0..<39 * 23 where pixel % 2 == 0 {
            pixels[pixel * 4..<pixel * 4 + 4] = [UInt8(pixel * 37 % 256), UInt8(pixel * 91 % 256), UInt8(pixel * 53 % 256), 0]
        }
        let image = RGBAImage(width: 39, height: 23, pixels: pixels)
        let decoder = try ASTCDecoder()
        var seen: [Bool: Double] = [:]
        for weighted in [false, true] {
            let blocks = try ASTCEncoder(quality: .fast, weightsColorByAlpha: weighted).encode(image)
            let decoded = try decoder.decode(blocks, width: 39, height: 23)
            seen[weighted] = GPUFixtures.psnr(GPUFixtures.premultiplied(image), GPUFixtures.premultiplied(decoded))
        }
        #expect(seen[true]! > seen[false]! + 1, "\(seen)")
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func decodesWhatTheAstcencCommandWroteAsItDoes() throws {
        let file = try ASTCFile(GPUFixtures.file("astc-cli-4x4.astc"))
        #expect(file.blockSize == .fourByFour && file.width == 45 && file.height == 31)
        let decoded = try ASTCDecoder(blockSize: file.blockSize, colorSpace: .linear).decode(file.blocks, width: file.width, height: file.height)
        #expect(decoded == (try GPUFixtures.png("astc-cli-4x4-dl.png")))
        // The command's -cl ... -medium is this encoder's linear medium: the same blocks, even
        // after other qualities encoded first in this process (astcenc 4.2 keeps the first
        // compression's refinement limit, which changes 3 of these blocks after -fast, 4 after
        // -thorough: ASTCLibrary fixes it to medium's).
        let source = try GPUFixtures.png("astc-source.png")
        for quality in [EncoderQuality.fast, .thorough] { _ = try ASTCEncoder(quality: quality, colorSpace: .linear).encode(source) }
        #expect(try ASTCEncoder(quality: .medium, colorSpace: .linear).encode(source) == file.blocks)
        #expect(ASTCFile(blockSize: .fourByFour, width: 45, height: 31, blocks: file.blocks).bytes == GPUFixtures.file("astc-cli-4x4.astc"))
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func wrongSizedBlockDataIsRefused() throws {
        let decoder = try ASTCDecoder(blockSize: .sixBySix)
        #expect(throws: ASTCError.blockDataSize(expected: 2 * 2 * 16, actual: 48)) {
            try decoder.decode([UInt8](repeating: 0, count: 48), width: 12, height: 7)
        }
        #expect(try decoder.decode([], width: 0, height: 0).pixels.isEmpty)
        #expect(throws: ASTCError.invalidSize(width: -6, height: 7)) { try decoder.decode([], width: -6, height: 7) }
        #expect(throws: ASTCError.invalidSize(width: 1 << 40, height: 1 << 40)) { try decoder.decode([], width: 1 << 40, height: 1 << 40) }
        #expect(try ASTCEncoder().encode(RGBAImage(width: 0, height: 5, pixels: [])).isEmpty)
    }

    @Test func damagedFilesAreRefused() {
        var header = GPUFixtures.file("astc-cli-4x4.astc")
        #expect(throws: ASTCError.blockDataSize(expected: 1536, actual: 1535)) { try ASTCFile(Array(header.dropLast())) }
        header[4] = 10
        #expect(throws: ASTCError.invalidFile("block size 10x4 (4x4, 5x5, 6x6 and 8x8 are read)")) { try ASTCFile(header) }
        header[0] = 0
        #expect(throws: ASTCError.invalidFile("no ASTC header (magic 0x5CA1AB13)")) { try ASTCFile(header) }
    }

    @Test(.enabled(if: GPUFixtures.hasASTC, "needs libastcenc3d"))
    func astcencErrorsCarryItsWords() throws {
        let library = try ASTCLibrary.shared.get()
        #expect(throws: ASTCError.library(function: "astcenc_config_init", status: 5, message: "ASTCENC_ERR_BAD_BLOCK_SIZE")) {
            try library.check(ASTCENC_ERR_BAD_BLOCK_SIZE, "astcenc_config_init")
        }
    }

    @Test(.enabled(if: !GPUFixtures.hasASTC, "a machine without libastcenc3d (a fresh one)"))
    func withoutTheLibraryEncodersSayWhatToInstall() {
        #expect(throws: MissingSystemLibrary.self) { try ASTCEncoder() }
        #expect(throws: MissingSystemLibrary.self) { try ASTCDecoder() }
    }

    @Test func aMissingLibraryNamesItsPackage() {
        #expect {
            try ASTCLibrary.opened(fileNames: ["libastcenc-absent.so.3d"]).get()
        } throws: { error in
            (error as? MissingSystemLibrary).map { $0.package == "libastcenc3d" && $0.library == "libastcenc" } ?? false
        }
    }
}
