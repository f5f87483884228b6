import Preload
import PreloadGPU

/// Block-compressed textures decoded to RGBA8 on the CPU, where they cannot reach the GPU as
/// they are (SDL's renderer is not its OpenGL one, or the driver lacks the format): BC1–BC5 and
/// BC7 with `BlockDecoder`, ASTC with libastcenc (`ASTCDecoder`). They decode as the OpenGL
/// path samples them, UNORM (see `GLCompressedUploads`): the stored values, as the RGBA8 path
/// draws them. Level 0 only (SDL's textures have no mipmaps), a band of block rows at a time,
/// so that a large texture is decoded as it is uploaded, over frames (`StripUploads`).
final class CPUBlockDecoding {
    /// One ASTC decoder per block size, made when first needed (each keeps astcenc's context).
    private var astcDecoders: [ASTCBlockSize: ASTCDecoder] = [:]

    /// `count` rows of level 0 of `texture` from row `first` (a multiple of its block height),
    /// as RGBA8 rows, top first.
    /// - Throws: the decoder's error (a damaged block count), or `MissingSystemLibrary` when an
    ///   ASTC texture meets a machine without libastcenc.
    func decode(_ texture: Texture, rows first: Int, count: Int) throws -> [UInt8] {
        let format = texture.pixelFormat
        let start = first / format.blockHeight * texture.bytesPerRow
        let end = start + (count + format.blockHeight - 1) / format.blockHeight * texture.bytesPerRow
        if let blockSize = ASTCBlockSize(format) {
            let decoder = try astcDecoders[blockSize] ?? ASTCDecoder(blockSize: blockSize, colorSpace: .linear)
            astcDecoders[blockSize] = decoder
            let blocks = texture.pixels.withUnsafeBytes { Array($0[start..<end]) }
            return try decoder.decode(blocks, width: texture.width, height: count).pixels
        }
        return try texture.pixels.withUnsafeBytes { pixels in
            try BlockDecoder.decode(UnsafeRawBufferPointer(rebasing: pixels[start..<end]), format: format, width: texture.width, height: count)
                .pixels
        }
    }
}
