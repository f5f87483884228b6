/// Encodes 4×4 blocks one after another on one thread: loads a block's pixels, takes the exact
/// path for one-colour blocks, else tries the preset's modes and keeps the block with the least
/// weighted squared error. Owns its scratch memory, so that encoding allocates nothing per block.
final class BC7BlockEncoder {
    private let settings: BC7SearchSettings
    private let weightsColorByAlpha: Bool

    // Scratch memory, allocated once.
    private let points: UnsafeMutablePointer<SIMD4<Float>>
    private let weights: UnsafeMutablePointer<SIMD4<Float>>
    private let rotatedPoints: UnsafeMutablePointer<SIMD4<Float>>
    private let rotatedWeights: UnsafeMutablePointer<SIMD4<Float>>
    private let subsetPoints: UnsafeMutablePointer<SIMD4<Float>>
    private let subsetWeights: UnsafeMutablePointer<SIMD4<Float>>
    private let subsetPositions: UnsafeMutablePointer<Int>
    private let subsetLanes: UnsafeMutablePointer<SIMD4<Float>>
    private let palette: UnsafeMutablePointer<SIMD4<Float>>
    private let fits: UnsafeMutablePointer<SubsetFit>
    private let partitionSearch = PartitionSearch()
    private let candidates: UnsafeMutablePointer<Int>

    /// The best block so far and its error.
    private var best = BlockBitWriter()
    private var bestError = Float.infinity

    /// An encoder searching as `settings` say.
    init(settings: BC7SearchSettings, weightsColorByAlpha: Bool) {
        self.settings = settings
        self.weightsColorByAlpha = weightsColorByAlpha
        points = .allocate(capacity: 16)
        weights = .allocate(capacity: 16)
        rotatedPoints = .allocate(capacity: 16)
        rotatedWeights = .allocate(capacity: 16)
        subsetPoints = .allocate(capacity: 48)
        subsetWeights = .allocate(capacity: 48)
        subsetPositions = .allocate(capacity: 48)
        subsetLanes = .allocate(capacity: 3 * 32)
        palette = .allocate(capacity: 16)
        fits = .allocate(capacity: 3)
        fits.initialize(repeating: SubsetFit(), count: 3)
        candidates = .allocate(capacity: 64)
    }

    deinit {
        for pointer in [points, weights, rotatedPoints, rotatedWeights, subsetPoints, subsetWeights, subsetLanes, palette] {
            pointer.deallocate()
        }
        subsetPositions.deallocate()
        fits.deallocate()
        candidates.deallocate()
    }

    /// Encodes the 16 RGBA8 pixels at `pixels` (row after row) into the 16 bytes at `block`.
    func encode(_ pixels: UnsafePointer<UInt8>, into block: UnsafeMutableRawPointer) {
        var isOpaque = true, isTransparent = true, isConstant = true
        let first = SIMD4<UInt8>(pixels[0], pixels[1], pixels[2], pixels[3])
        for pixel in 0..<16 {
            let color = SIMD4<UInt8>(pixels[pixel * 4], pixels[pixel * 4 + 1], pixels[pixel * 4 + 2], pixels[pixel * 4 + 3])
            isOpaque = isOpaque && color.w == 255
            isTransparent = isTransparent && color.w == 0
            isConstant = isConstant && color == first
            points[pixel] = SIMD4<Float>(Float(color.x), Float(color.y), Float(color.z), Float(color.w))
        }
        if isConstant || (isTransparent && weightsColorByAlpha) {
            BC7SolidColor.block(isConstant ? first : SIMD4(first.x, first.y, first.z, 0)).store(to: block)
            return
        }
        setWeights()
        partitionSearch.reset()
        best = BlockBitWriter()
        bestError = .infinity
        for mode in isOpaque ? settings.opaqueModes : settings.alphaModes {
            switch mode {
            case 4, 5: trySeparateAlpha(BC7Mode.all[mode])
            default: tryPartitioned(BC7Mode.all[mode])
            }
            if bestError <= settings.goodEnoughError { break }
        }
        best.store(to: block)
    }

    /// Channel weights: 1 each, or with `weightsColorByAlpha` colour weighted by (alpha / 255)²,
    /// the colour of fully transparent pixels then replaced by the block's weighted mean colour
    /// (it costs nothing, and stays out of the principal axis).
    private func setWeights() {
        guard weightsColorByAlpha else {
            weights.update(repeating: SIMD4(repeating: 1), count: 16)
            return
        }
        var colorSum = SIMD4<Float>(), weightSum: Float = 0
        for pixel in 0..<16 {
            let opacity = points[pixel].w / 255
            let weight = opacity * opacity
            weights[pixel] = SIMD4(weight, weight, weight, 1)
            colorSum += points[pixel] * weight
            weightSum += weight
        }
        let mean = colorSum / weightSum
        for pixel in 0..<16 where points[pixel].w == 0 {
            points[pixel] = SIMD4(mean.x, mean.y, mean.z, 0)
        }
    }

    /// Mode 0, 1, 2, 3, 6 or 7: the best estimated partitions, each subset fitted on its own.
    private func tryPartitioned(_ mode: BC7Mode) {
        let format = EndpointFormat(mode: mode)
        let partitionCount = 1 << mode.partitionBits
        let candidateCount: Int
        if mode.subsetCount == 1 {
            candidates[0] = 0
            candidateCount = 1
        } else {
            let wanted = mode.subsetCount == 2 ? settings.twoSubsetCandidates : settings.threeSubsetCandidates
            candidateCount = partitionSearch.rank(
                points: points, weights: weights, channelMask: format.channelMask, subsetCount: mode.subsetCount,
                partitionCount: partitionCount, indexBits: mode.indexBits, count: wanted, into: candidates)
        }
        // Alpha the mode cannot store (it decodes as 255) costs the same whatever the endpoints.
        var fixedError: Float = 0
        if mode.alphaBits == 0 {
            for pixel in 0..<16 {
                let missing = 255 - points[pixel].w
                fixedError += missing * missing * weights[pixel].w
            }
        }
        for candidate in 0..<candidateCount {
            let partition = candidates[candidate]
            let subsets = BC7Partitions.subsets(count: mode.subsetCount, partition: partition)
            var total = fixedError
            for subset in 0..<mode.subsetCount {
                let pixels = gather(subset: subset, of: subsets, channelMask: format.channelMask)
                fits[subset] = EndpointSearch.fit(pixels, format: format, effort: settings.effort, palette: palette)
                total += fits[subset].error
                if total >= bestError { break }
            }
            if total < bestError {
                bestError = total
                best = BC7BlockPacker.packPartitioned(mode: mode, partition: partition, fits: fits)
            }
        }
    }

    /// Mode 4 or 5: colour and alpha (after each rotation tried) fitted apart.
    private func trySeparateAlpha(_ mode: BC7Mode) {
        for rotation in 0..<settings.rotations {
            for pixel in 0..<16 {
                rotatedPoints[pixel] = Self.rotate(points[pixel], rotation)
                rotatedWeights[pixel] = Self.rotate(weights[pixel], rotation)
            }
            for indexSelection in 0...mode.indexSelectionBits {
                let colorBits = indexSelection == 0 ? mode.indexBits : mode.secondaryIndexBits
                let alphaBits = indexSelection == 0 ? mode.secondaryIndexBits : mode.indexBits
                let color = EndpointFormat(
                    codeBits: SIMD4(Int32(mode.colorBits), Int32(mode.colorBits), Int32(mode.colorBits), 0), pBits: .none,
                    indexBits: colorBits, channelMask: SIMD4(1, 1, 1, 0))
                let alpha = EndpointFormat(
                    codeBits: SIMD4(0, 0, 0, Int32(mode.alphaBits)), pBits: .none, indexBits: alphaBits, channelMask: SIMD4(0, 0, 0, 1))
                let colorFit = EndpointSearch.fit(
                    gatherAll(rotatedPoints, rotatedWeights, channelMask: color.channelMask, into: 0), format: color, effort: settings.effort,
                    palette: palette)
                guard colorFit.error < bestError else { continue }
                let alphaFit = EndpointSearch.fit(
                    gatherAll(rotatedPoints, rotatedWeights, channelMask: alpha.channelMask, into: 1), format: alpha, effort: settings.effort,
                    palette: palette)
                if colorFit.error + alphaFit.error < bestError {
                    bestError = colorFit.error + alphaFit.error
                    best = BC7BlockPacker.packSeparateAlpha(
                        mode: mode, rotation: rotation, indexSelection: indexSelection, color: colorFit, alpha: alphaFit)
                }
            }
        }
    }

    /// The pixels of `subset` (by the packed `subsets`), into that subset's scratch space.
    @inline(__always)
    private func gather(subset: Int, of subsets: UInt32, channelMask: SIMD4<Float>) -> SubsetPixels {
        let base = subset * 16
        var count = 0
        for pixel in 0..<16 where Int((subsets >> UInt32(pixel * 2)) & 3) == subset {
            subsetPoints[base + count] = points[pixel]
            subsetWeights[base + count] = weights[pixel] * channelMask
            subsetPositions[base + count] = pixel
            count += 1
        }
        let pixels = SubsetPixels(
            points: subsetPoints + base, weights: subsetWeights + base, positions: subsetPositions + base, count: count,
            lanes: subsetLanes + subset * 32)
        pixels.transpose()
        return pixels
    }

    /// All 16 pixels of `source` with `sourceWeights` masked, into scratch space `slot`.
    @inline(__always)
    private func gatherAll(
        _ source: UnsafeMutablePointer<SIMD4<Float>>, _ sourceWeights: UnsafeMutablePointer<SIMD4<Float>>, channelMask: SIMD4<Float>,
        into slot: Int
    ) -> SubsetPixels {
        let base = slot * 16
        for pixel in 0..<16 {
            subsetPoints[base + pixel] = source[pixel]
            subsetWeights[base + pixel] = sourceWeights[pixel] * channelMask
            subsetPositions[base + pixel] = pixel
        }
        let pixels = SubsetPixels(
            points: subsetPoints + base, weights: subsetWeights + base, positions: subsetPositions + base, count: 16,
            lanes: subsetLanes + slot * 32)
        pixels.transpose()
        return pixels
    }

    /// `value` with alpha swapped with red (rotation 1), green (2) or blue (3), as modes 4 and 5
    /// store it; rotation 0 leaves it.
    @inline(__always)
    static func rotate(_ value: SIMD4<Float>, _ rotation: Int) -> SIMD4<Float> {
        switch rotation {
        case 1: SIMD4(value.w, value.y, value.z, value.x)
        case 2: SIMD4(value.x, value.w, value.z, value.y)
        case 3: SIMD4(value.x, value.y, value.w, value.z)
        default: value
        }
    }
}
