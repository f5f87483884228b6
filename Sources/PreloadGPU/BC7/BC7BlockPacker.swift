/// Writes endpoints and indices into a BC7 block's bits, ordering each subset's endpoints so that
/// its anchor pixel's index has a zero top bit (which the block then leaves out).
enum BC7BlockPacker {
    /// A block of `mode` (0, 1, 2, 3, 6 or 7) with `partition`, from one fit per subset at
    /// `fits` (`mode.subsetCount` of them).
    static func packPartitioned(mode: BC7Mode, partition: Int, fits: UnsafeMutablePointer<SubsetFit>) -> BlockBitWriter {
        let subsets = BC7Partitions.subsets(count: mode.subsetCount, partition: partition)
        let anchors = BC7Partitions.anchors(count: mode.subsetCount, partition: partition)
        let topIndex = UInt64(1 << (mode.indexBits - 1))
        var indices: UInt64 = 0
        for subset in 0..<mode.subsetCount {
            let anchor = Int((anchors >> UInt32(subset * 4)) & 15)
            if (fits[subset].indices >> UInt64(anchor * 4)) & topIndex != 0 {
                swapEnds(
                    &fits[subset], channels: SIMDMask(repeating: true), flipping: nibbles(of: subsets, subset: subset), indexBits: mode.indexBits)
            }
            indices |= fits[subset].indices
        }
        var writer = BlockBitWriter()
        writer.write(1 << Int32(mode.number), bits: mode.number + 1)
        writer.write(Int32(partition), bits: mode.partitionBits)
        for channel in 0..<4 {
            let bits = channel < 3 ? mode.colorBits : mode.alphaBits
            guard bits > 0 else { continue }
            for subset in 0..<mode.subsetCount {
                writer.write(fits[subset].low[channel], bits: bits)
                writer.write(fits[subset].high[channel], bits: bits)
            }
        }
        switch mode.pBits {
        case .none: break
        case .shared:
            for subset in 0..<mode.subsetCount { writer.write(fits[subset].pBits & 1, bits: 1) }
        case .perEndpoint:
            for subset in 0..<mode.subsetCount {
                writer.write(fits[subset].pBits & 1, bits: 1)
                writer.write(fits[subset].pBits >> 1, bits: 1)
            }
        }
        writeIndices(indices, bits: mode.indexBits, anchors: anchors, subsetCount: mode.subsetCount, to: &writer)
        return writer
    }

    /// A block of mode 4 or 5: `color`'s red, green and blue codes and indices, `alpha`'s alpha
    /// code and indices, in the channels after `rotation`; with `indexSelection` 1 (mode 4),
    /// colour has the 3-bit indices and alpha the 2-bit ones.
    static func packSeparateAlpha(mode: BC7Mode, rotation: Int, indexSelection: Int, color: SubsetFit, alpha: SubsetFit) -> BlockBitWriter {
        var color = color, alpha = alpha
        let colorBits = indexSelection == 0 ? mode.indexBits : mode.secondaryIndexBits
        let alphaBits = indexSelection == 0 ? mode.secondaryIndexBits : mode.indexBits
        let everyPixel: UInt64 = .max
        if color.indices & UInt64(1 << (colorBits - 1)) != 0 {
            swapEnds(&color, channels: SIMD4<Int32>(1, 1, 1, 0) .== 1, flipping: everyPixel, indexBits: colorBits)
        }
        if alpha.indices & UInt64(1 << (alphaBits - 1)) != 0 {
            swapEnds(&alpha, channels: SIMD4<Int32>(0, 0, 0, 1) .== 1, flipping: everyPixel, indexBits: alphaBits)
        }
        var writer = BlockBitWriter()
        writer.write(1 << Int32(mode.number), bits: mode.number + 1)
        writer.write(Int32(rotation), bits: mode.rotationBits)
        writer.write(Int32(indexSelection), bits: mode.indexSelectionBits)
        for channel in 0..<3 {
            writer.write(color.low[channel], bits: mode.colorBits)
            writer.write(color.high[channel], bits: mode.colorBits)
        }
        writer.write(alpha.low.w, bits: mode.alphaBits)
        writer.write(alpha.high.w, bits: mode.alphaBits)
        let primary = indexSelection == 0 ? color.indices : alpha.indices
        let secondary = indexSelection == 0 ? alpha.indices : color.indices
        writeIndices(primary, bits: mode.indexBits, anchors: 0, subsetCount: 1, to: &writer)
        writeIndices(secondary, bits: mode.secondaryIndexBits, anchors: 0, subsetCount: 1, to: &writer)
        return writer
    }

    /// Swaps the low and high endpoints in `channels` (p-bits too) and mirrors the indices in the
    /// nibbles `flipping` selects, so the same colours decode.
    @inline(__always)
    private static func swapEnds(_ fit: inout SubsetFit, channels: SIMDMask<SIMD4<Int32>>, flipping: UInt64, indexBits: Int) {
        let low = fit.low
        fit.low.replace(with: fit.high, where: channels)
        fit.high.replace(with: low, where: channels)
        fit.pBits = (fit.pBits & 1) << 1 | fit.pBits >> 1
        let allOnes = UInt64((1 << indexBits) - 1) * 0x1111_1111_1111_1111
        fit.indices ^= allOnes & flipping
    }

    /// A nibble of ones for each pixel of `subset`, a zero nibble for the others.
    @inline(__always)
    private static func nibbles(of subsets: UInt32, subset: Int) -> UInt64 {
        var mask: UInt64 = 0
        for pixel in 0..<16 where Int((subsets >> UInt32(pixel * 2)) & 3) == subset { mask |= 15 << UInt64(pixel * 4) }
        return mask
    }

    /// Writes 16 indices, each anchor pixel's with one bit less.
    @inline(__always)
    private static func writeIndices(_ indices: UInt64, bits: Int, anchors: UInt32, subsetCount: Int, to writer: inout BlockBitWriter) {
        var anchorPixels: UInt32 = 1
        for subset in 1..<max(subsetCount, 1) { anchorPixels |= 1 << ((anchors >> UInt32(subset * 4)) & 15) }
        for pixel in 0..<16 {
            let index = Int32((indices >> UInt64(pixel * 4)) & 15)
            writer.write(index, bits: anchorPixels & (1 << UInt32(pixel)) != 0 ? bits - 1 : bits)
        }
    }
}
