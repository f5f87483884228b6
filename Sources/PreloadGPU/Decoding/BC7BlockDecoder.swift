/// Decodes one BC7 block, any of its eight modes, the way the BPTC specification does.
enum BC7BlockDecoder {
    /// Writes the 16 pixels of the block at `block` as RGBA8, row after row, to `pixels` (64 bytes).
    /// A block whose first byte is 0 (no mode, reserved) decodes to transparent black.
    static func decode(_ block: UnsafeRawPointer, into pixels: UnsafeMutablePointer<UInt8>) {
        let first = block.load(as: UInt8.self)
        guard first != 0 else {
            pixels.update(repeating: 0, count: 64)
            return
        }
        let mode = BC7Mode.all[first.trailingZeroBitCount]
        var reader = BlockBitReader(block)
        _ = reader.read(mode.number + 1)
        let partition = Int(reader.read(mode.partitionBits))
        let rotation = reader.read(mode.rotationBits)
        let indexSelection = reader.read(mode.indexSelectionBits)
        let endpointCount = mode.subsetCount * 2

        // Endpoint e of subset s at s * 2 + e; channels red, green, blue, alpha.
        var endpoints = (SIMD4<Int32>(), SIMD4<Int32>(), SIMD4<Int32>(), SIMD4<Int32>(), SIMD4<Int32>(), SIMD4<Int32>())
        withUnsafeMutableBytes(of: &endpoints) { raw in
            let endpoint = raw.bindMemory(to: SIMD4<Int32>.self)
            for channel in 0..<4 {
                let bits = channel < 3 ? mode.colorBits : mode.alphaBits
                for index in 0..<endpointCount { endpoint[index][channel] = reader.read(bits) }
            }
            var pBits = SIMD8<Int32>()
            switch mode.pBits {
            case .none: break
            case .shared:
                for subset in 0..<mode.subsetCount {
                    let bit = reader.read(1)
                    pBits[subset * 2] = bit
                    pBits[subset * 2 + 1] = bit
                }
            case .perEndpoint:
                for index in 0..<endpointCount { pBits[index] = reader.read(1) }
            }
            let extraBit: Int32 = mode.pBits == .none ? 0 : 1
            for index in 0..<endpointCount {
                for channel in 0..<4 {
                    let bits = Int32(channel < 3 ? mode.colorBits : mode.alphaBits)
                    if bits == 0 {
                        endpoint[index][channel] = 255
                    } else {
                        let value = endpoint[index][channel] << extraBit | (extraBit == 1 ? pBits[index] : 0)
                        endpoint[index][channel] = BC7Mode.expand(value, bits: bits + extraBit)
                    }
                }
            }
        }

        let subsets = BC7Partitions.subsets(count: mode.subsetCount, partition: partition)
        let anchors = BC7Partitions.anchors(count: mode.subsetCount, partition: partition)
        func isAnchor(_ pixel: Int) -> Bool {
            let subset = Int((subsets >> UInt32(pixel * 2)) & 3)
            return Int((anchors >> UInt32(subset * 4)) & 15) == pixel
        }
        var primary = SIMD16<Int32>()
        var secondary = SIMD16<Int32>()
        for pixel in 0..<16 { primary[pixel] = reader.read(isAnchor(pixel) ? mode.indexBits - 1 : mode.indexBits) }
        if mode.secondaryIndexBits > 0 {
            for pixel in 0..<16 { secondary[pixel] = reader.read(pixel == 0 ? mode.secondaryIndexBits - 1 : mode.secondaryIndexBits) }
        }
        let swapsIndices = indexSelection == 1
        let colorIndices = swapsIndices ? secondary : primary
        let alphaIndices = mode.secondaryIndexBits > 0 && !swapsIndices ? secondary : primary
        let colorBits = swapsIndices ? mode.secondaryIndexBits : mode.indexBits
        let alphaBits = mode.secondaryIndexBits > 0 && !swapsIndices ? mode.secondaryIndexBits : mode.indexBits
        let colorWeights = BC7Mode.weightOffset(bits: colorBits)
        let alphaWeights = BC7Mode.weightOffset(bits: alphaBits)

        withUnsafeBytes(of: endpoints) { raw in
            let endpoint = raw.bindMemory(to: SIMD4<Int32>.self)
            for pixel in 0..<16 {
                let subset = Int((subsets >> UInt32(pixel * 2)) & 3)
                let low = endpoint[subset * 2], high = endpoint[subset * 2 + 1]
                let colorWeight = BC7Mode.weights[colorWeights + Int(colorIndices[pixel])]
                let alphaWeight = BC7Mode.weights[alphaWeights + Int(alphaIndices[pixel])]
                var color = SIMD4<Int32>(
                    BC7Mode.interpolate(low.x, high.x, weight: colorWeight), BC7Mode.interpolate(low.y, high.y, weight: colorWeight),
                    BC7Mode.interpolate(low.z, high.z, weight: colorWeight), BC7Mode.interpolate(low.w, high.w, weight: alphaWeight))
                if rotation != 0 {
                    let channel = Int(rotation) - 1
                    let alpha = color.w
                    color.w = color[channel]
                    color[channel] = alpha
                }
                for channel in 0..<4 { pixels[pixel * 4 + channel] = UInt8(truncatingIfNeeded: color[channel]) }
            }
        }
    }
}
