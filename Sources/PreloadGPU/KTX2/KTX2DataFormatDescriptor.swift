import Preload

/// A KTX2 file's Data Format Descriptor: the basic descriptor block of the Khronos Data Format
/// Specification 1.3 (`KHR_DF_KHR_DESCRIPTORTYPE_BASICFORMAT`), which says what the bytes of a
/// texel block hold: colour model, primaries, transfer function, premultiplied alpha, block size,
/// bytes per plane and one sample per channel.
///
/// ``init(format:colorSpace:alphaMode:)`` gives the descriptor the specification's tables give
/// each `PixelFormat`: RGBSDA with four samples for decoded formats; BC1A (one
/// punch-through alpha sample), BC3 (alpha then colour), BC4, BC5 (red then green), BC7 and ASTC
/// (one sample) for blocks. With an sRGB transfer function the alpha sample (channel 15) is
/// marked linear, as KTX2 requires.
struct KTX2DataFormatDescriptor: Equatable {
    /// One sample: where a channel's bits are in the texel block and what they mean.
    struct Sample: Equatable {
        /// First bit of the channel in the block.
        var bitOffset: UInt16
        /// The channel's bits, minus 1.
        var bitLength: UInt8
        /// Channel id (low 4 bits) and qualifiers (linear 0x10, exponent 0x20, signed 0x40,
        /// float 0x80).
        var channelType: UInt8
        /// The sample's position in the block, four bytes (0 for every format here).
        var samplePositions: UInt32 = 0
        /// The value that means 0.
        var lower: UInt32 = 0
        /// The value that means 1.
        var upper: UInt32
    }

    /// `KHR_DF_MODEL_*`: RGBSDA (1), BC1A (128), BC3 (130), BC4 (131), BC5 (132), BC7 (134), ASTC (162).
    var colorModel: UInt8
    /// `KHR_DF_PRIMARIES_*`: BT709 (1), the sRGB primaries, for every file written.
    var colorPrimaries: UInt8
    /// `KHR_DF_TRANSFER_*`: linear (1) or sRGB (2).
    var transferFunction: UInt8
    /// `KHR_DF_FLAG_ALPHA_PREMULTIPLIED` (1) or 0.
    var flags: UInt8
    /// Block width, height, depth and fourth dimension, each minus 1, from the low byte up.
    var texelBlockDimensions: UInt32
    /// Bytes of a block in each of the 8 planes, from the low byte up.
    var bytesPlanes: UInt64
    /// One per channel, in the order the specification lists them.
    var samples: [Sample]

    static let transferLinear: UInt8 = 1
    static let transferSRGB: UInt8 = 2
    static let primariesBT709: UInt8 = 1
    static let flagPremultiplied: UInt8 = 1
    static let qualifierLinear: UInt8 = 0x10
    static let channelAlpha: UInt8 = 15
    /// `KHR_DF_VERSIONNUMBER_1_3`.
    static let versionNumber: UInt32 = 2
    /// Bytes of a basic block before its samples.
    static let blockHeaderByteCount = 24
    /// Bytes of one sample.
    static let sampleByteCount = 16

    /// The descriptor of `format` in `colorSpace` with `alphaMode`.
    init(format: PixelFormat, colorSpace: ColorSpace, alphaMode: AlphaMode) {
        let srgb = colorSpace == .sRGB
        func sample(_ channel: UInt8, bitOffset: UInt16, bits: Int) -> Sample {
            let linear = srgb && channel == Self.channelAlpha ? Self.qualifierLinear : 0
            let upper = bits >= 32 ? UInt32.max : UInt32(1) << UInt32(bits) - 1
            return Sample(bitOffset: bitOffset, bitLength: UInt8(bits - 1), channelType: channel | linear, upper: upper)
        }
        func rgba(bits: Int) -> [Sample] {
            [0, 1, 2, Self.channelAlpha].enumerated().map { index, channel in sample(channel, bitOffset: UInt16(index * bits), bits: bits) }
        }
        switch format {
        case .rgba8: (colorModel, samples) = (1, rgba(bits: 8))
        case .rgba16: (colorModel, samples) = (1, rgba(bits: 16))
        // KHR_DF_CHANNEL_BC1A_ALPHAPRESENT (1): the punch-through value is transparent.
        case .bc1: (colorModel, samples) = (128, [sample(1, bitOffset: 0, bits: 64)])
        case .bc3: (colorModel, samples) = (130, [sample(Self.channelAlpha, bitOffset: 0, bits: 64), sample(0, bitOffset: 64, bits: 64)])
        case .bc4: (colorModel, samples) = (131, [sample(0, bitOffset: 0, bits: 64)])
        case .bc5: (colorModel, samples) = (132, [sample(0, bitOffset: 0, bits: 64), sample(1, bitOffset: 64, bits: 64)])
        case .bc7: (colorModel, samples) = (134, [sample(0, bitOffset: 0, bits: 128)])
        case .astc4x4, .astc5x5, .astc6x6, .astc8x8: (colorModel, samples) = (162, [sample(0, bitOffset: 0, bits: 128)])
        }
        colorPrimaries = Self.primariesBT709
        transferFunction = srgb ? Self.transferSRGB : Self.transferLinear
        flags = alphaMode == .premultiplied ? Self.flagPremultiplied : 0
        texelBlockDimensions = UInt32(format.blockWidth - 1) | UInt32(format.blockHeight - 1) << 8
        bytesPlanes = UInt64(format.bytesPerBlock)
    }

    /// The descriptor as a KTX2 file stores it: `dfdTotalSize`, then the basic block, little-endian.
    var bytes: [UInt8] {
        let blockSize = Self.blockHeaderByteCount + Self.sampleByteCount * samples.count
        var words: [UInt32] = [
            UInt32(4 + blockSize),
            0,  // vendorId 0 (Khronos), descriptorType 0 (basic)
            Self.versionNumber | UInt32(blockSize) << 16,
            UInt32(colorModel) | UInt32(colorPrimaries) << 8 | UInt32(transferFunction) << 16 | UInt32(flags) << 24,
            texelBlockDimensions,
            UInt32(truncatingIfNeeded: bytesPlanes), UInt32(truncatingIfNeeded: bytesPlanes >> 32),
        ]
        for sample in samples {
            words += [
                UInt32(sample.bitOffset) | UInt32(sample.bitLength) << 16 | UInt32(sample.channelType) << 24,
                sample.samplePositions, sample.lower, sample.upper,
            ]
        }
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) } }
    }

    /// The basic descriptor block of `dfd`, a file's whole DFD (`dfdTotalSize` first); other
    /// blocks (vendors' own) are skipped.
    /// - Throws: ``KTX2Error/invalidDataFormatDescriptor(_:)`` for sizes that do not add up,
    ///   ``KTX2Error/missingDataFormatDescriptor`` when no block is basic.
    init(parsing dfd: UnsafeRawBufferPointer) throws(KTX2Error) {
        func word(_ offset: Int) -> UInt32 { UInt32(littleEndian: dfd.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        guard dfd.count >= 4 else { throw .missingDataFormatDescriptor }
        guard Int(word(0)) == dfd.count else {
            throw .invalidDataFormatDescriptor("dfdTotalSize is \(word(0)), dfdByteLength \(dfd.count)")
        }
        var offset = 4
        while offset < dfd.count {
            guard dfd.count - offset >= 8 else { throw .invalidDataFormatDescriptor("a descriptor block's header is cut at byte \(offset)") }
            let kind = word(offset), blockSize = Int(word(offset + 4) >> 16)
            guard blockSize >= 8, blockSize % 4 == 0, blockSize <= dfd.count - offset else {
                throw .invalidDataFormatDescriptor("the block at byte \(offset) claims \(blockSize) bytes, \(dfd.count - offset) remain")
            }
            guard kind != 0 else {  // vendorId 0, descriptorType 0: the basic block
                let version = word(offset + 4) & 0xFFFF
                guard version == Self.versionNumber else {
                    throw .invalidDataFormatDescriptor("versionNumber is \(version), expected \(Self.versionNumber)")
                }
                guard blockSize >= Self.blockHeaderByteCount, (blockSize - Self.blockHeaderByteCount) % Self.sampleByteCount == 0 else {
                    throw .invalidDataFormatDescriptor("descriptorBlockSize \(blockSize) is not 24 + 16 per sample")
                }
                let model = word(offset + 8)
                colorModel = UInt8(truncatingIfNeeded: model)
                colorPrimaries = UInt8(truncatingIfNeeded: model >> 8)
                transferFunction = UInt8(truncatingIfNeeded: model >> 16)
                flags = UInt8(truncatingIfNeeded: model >> 24)
                texelBlockDimensions = word(offset + 12)
                bytesPlanes = UInt64(word(offset + 16)) | UInt64(word(offset + 20)) << 32
                samples = stride(from: offset + Self.blockHeaderByteCount, to: offset + blockSize, by: Self.sampleByteCount).map { at in
                    let bits = word(at)
                    return Sample(
                        bitOffset: UInt16(truncatingIfNeeded: bits), bitLength: UInt8(truncatingIfNeeded: bits >> 16),
                        channelType: UInt8(truncatingIfNeeded: bits >> 24), samplePositions: word(at + 4), lower: word(at + 8), upper: word(at + 12))
                }
                return
            }
            offset += blockSize
        }
        throw .missingDataFormatDescriptor
    }

    /// Throws unless this descriptor (read from a file) describes the same texel blocks as
    /// `expected` (made for the file's `vkFormat`): the colour model, block, bytes per plane
    /// (which may be 0 in a supercompressed file, as earlier revisions wrote them) and every
    /// sample, whose linear qualifier may differ. Primaries are free.
    /// - Throws: ``KTX2Error/dataFormatDescriptorMismatch(field:found:expected:)`` naming the field.
    func check(matches expected: KTX2DataFormatDescriptor, supercompressed: Bool) throws(KTX2Error) {
        func same(_ field: String, _ found: some FixedWidthInteger, _ wanted: some FixedWidthInteger) throws(KTX2Error) {
            guard found == wanted else {
                throw .dataFormatDescriptorMismatch(
                    field: field, found: UInt32(truncatingIfNeeded: found), expected: UInt32(truncatingIfNeeded: wanted))
            }
        }
        try same("colorModel", colorModel, expected.colorModel)
        try same("texelBlockDimensions", texelBlockDimensions, expected.texelBlockDimensions)
        if !(supercompressed && bytesPlanes == 0) {
            try same("bytesPlane0", UInt32(truncatingIfNeeded: bytesPlanes), UInt32(truncatingIfNeeded: expected.bytesPlanes))
            try same("bytesPlane4", UInt32(truncatingIfNeeded: bytesPlanes >> 32), UInt32(truncatingIfNeeded: expected.bytesPlanes >> 32))
        }
        try same("sample count", samples.count, expected.samples.count)
        for (index, (sample, wanted)) in zip(samples, expected.samples).enumerated() {
            try same("sample \(index) bitOffset", sample.bitOffset, wanted.bitOffset)
            try same("sample \(index) bitLength", sample.bitLength, wanted.bitLength)
            let notLinear = ~Self.qualifierLinear
            try same("sample \(index) channelType", sample.channelType & notLinear, wanted.channelType & notLinear)
            try same("sample \(index) samplePosition", sample.samplePositions, wanted.samplePositions)
            try same("sample \(index) sampleLower", sample.lower, wanted.lower)
            try same("sample \(index) sampleUpper", sample.upper, wanted.upper)
        }
    }
}
