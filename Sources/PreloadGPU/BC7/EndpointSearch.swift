/// How hard an endpoint search works.
struct EndpointSearchEffort {
    /// Rounds of least-squares refitting of the endpoints to the indices the last round chose.
    var refinements: Int
    /// Whether every p-bit choice is evaluated over the pixels; else the p-bits that quantize
    /// the endpoints themselves best are taken.
    var triesEveryPBit: Bool
    /// Passes of trying each endpoint code one step up and down (and each p-bit flipped),
    /// keeping what lowers the error; a pass that finds nothing ends them.
    var perturbationPasses: Int
}

/// Finds one subset's endpoints: a line through the pixels' principal axis, then rounds of
/// quantizing the endpoints (every p-bit choice), choosing indices and refitting the endpoints to
/// those indices by least squares, then small steps of the codes while they lower the error.
enum EndpointSearch {
    /// The best endpoints and indices found for `pixels` in `format`.
    static func fit(
        _ pixels: SubsetPixels, format: EndpointFormat, effort: EndpointSearchEffort, palette: UnsafeMutablePointer<SIMD4<Float>>
    ) -> SubsetFit {
        var (low, high) = principalAxisEnds(pixels)
        var best = SubsetFit()
        for round in 0...effort.refinements {
            let candidate = quantizeAndSelect(
                low: low, high: high, format: format, triesEveryPBit: effort.triesEveryPBit, pixels: pixels, palette: palette,
                limit: best.error)
            if candidate.error < best.error {
                best = candidate
            } else if round > 0 {
                break
            }
            if best.error == 0 || round == effort.refinements { break }
            guard let refit = leastSquaresEnds(pixels, indices: candidate.indices, indexBits: format.indexBits, low: low, high: high) else { break }
            low = refit.low
            high = refit.high
        }
        if effort.perturbationPasses > 0, best.error > 0 {
            perturb(&best, format: format, passes: effort.perturbationPasses, pixels: pixels, palette: palette)
        }
        return best
    }

    /// The two ends of the pixels' spread along their principal axis, on the 8-bit scale: the
    /// axis of the scatter matrix of the weighted offsets from the weighted mean (power
    /// iteration), each pixel placed on it where its weighted error is least, so that a pixel
    /// whose colour weighs nothing is placed by its alpha alone.
    static func principalAxisEnds(_ pixels: SubsetPixels) -> (low: SIMD4<Float>, high: SIMD4<Float>) {
        var weightSum = SIMD4<Float>(), weightedSum = SIMD4<Float>()
        for point in 0..<pixels.count {
            let weight = pixels.weights[point]
            weightSum += weight
            weightedSum += weight * pixels.points[point]
        }
        var mean = weightedSum / weightSum
        mean.replace(with: pixels.points[0], where: weightSum .<= 0)
        var rows = (SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>(), SIMD4<Float>())
        for point in 0..<pixels.count {
            let offset = (pixels.points[point] - mean) * pixels.weights[point].squareRoot()
            rows.0 += offset * offset.x
            rows.1 += offset * offset.y
            rows.2 += offset * offset.z
            rows.3 += offset * offset.w
        }
        let axis = principalAxis(rows)
        var lowest = Float.infinity, highest = -Float.infinity
        for point in 0..<pixels.count {
            let weightedAxis = pixels.weights[point] * axis
            let length = (weightedAxis * axis).sum()
            guard length > 1e-12 else { continue }
            let along = ((pixels.points[point] - mean) * weightedAxis).sum() / length
            lowest = min(lowest, along)
            highest = max(highest, along)
        }
        guard lowest <= highest else { return (mean, mean) }
        return ((mean + axis * lowest).clampedToByte, (mean + axis * highest).clampedToByte)
    }

    /// The unit eigenvector of the largest eigenvalue of the symmetric matrix with `rows`, by
    /// `iterations` steps of power iteration from its largest diagonal's row; zero when the
    /// matrix is.
    @inline(__always)
    static func principalAxis(_ rows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>), iterations: Int = 4) -> SIMD4<Float> {
        let diagonal = SIMD4(rows.0.x, rows.1.y, rows.2.z, rows.3.w)
        var axis = rows.0
        var largest = diagonal.x
        if diagonal.y > largest { (axis, largest) = (rows.1, diagonal.y) }
        if diagonal.z > largest { (axis, largest) = (rows.2, diagonal.z) }
        if diagonal.w > largest { (axis, largest) = (rows.3, diagonal.w) }
        guard largest > 0 else { return SIMD4() }
        for _ in 0..<iterations {
            axis = rows.0 * axis.x + rows.1 * axis.y + rows.2 * axis.z + rows.3 * axis.w
            let length = (axis * axis).sum()
            guard length > 1e-20 else { return SIMD4() }
            axis /= length.squareRoot()
        }
        return axis
    }

    /// Endpoints that minimize the weighted squared error for fixed `indices`, each channel a
    /// 2×2 least-squares system; a channel whose system is singular keeps `low` and `high`.
    /// Nil when every channel's is.
    static func leastSquaresEnds(
        _ pixels: SubsetPixels, indices: UInt64, indexBits: Int, low: SIMD4<Float>, high: SIMD4<Float>
    ) -> (low: SIMD4<Float>, high: SIMD4<Float>)? {
        let offset = BC7Mode.weightOffset(bits: indexBits)
        var lowLow = SIMD4<Float>(), lowHigh = SIMD4<Float>(), highHigh = SIMD4<Float>()
        var lowTarget = SIMD4<Float>(), highTarget = SIMD4<Float>()
        for point in 0..<pixels.count {
            let index = Int((indices >> UInt64(pixels.positions[point] * 4)) & 15)
            let t = Float(BC7Mode.weights[offset + index]) * (1 / 64)
            let weight = pixels.weights[point], color = pixels.points[point]
            let lowWeight = weight * (1 - t), highWeight = weight * t
            lowLow += lowWeight * (1 - t)
            lowHigh += lowWeight * t
            highHigh += highWeight * t
            lowTarget += lowWeight * color
            highTarget += highWeight * color
        }
        let determinant = lowLow * highHigh - lowHigh * lowHigh
        let solvable = determinant .> 1e-3 * (lowLow + highHigh) * (lowLow + highHigh)
        guard any(solvable) else { return nil }
        let inverse = 1 / determinant
        var newLow = (highHigh * lowTarget - lowHigh * highTarget) * inverse
        var newHigh = (lowLow * highTarget - lowHigh * lowTarget) * inverse
        newLow.replace(with: low, where: .!solvable)
        newHigh.replace(with: high, where: .!solvable)
        return (newLow.clampedToByte, newHigh.clampedToByte)
    }

    /// The best of quantizing `low` and `high` with each p-bit choice (or with the choice that
    /// keeps the endpoints themselves closest, unless `triesEveryPBit`).
    @inline(__always)
    static func quantizeAndSelect(
        low: SIMD4<Float>, high: SIMD4<Float>, format: EndpointFormat, triesEveryPBit: Bool, pixels: SubsetPixels,
        palette: UnsafeMutablePointer<SIMD4<Float>>, limit: Float
    ) -> SubsetFit {
        var best = SubsetFit()
        best.error = limit
        if !triesEveryPBit, format.pBits != .none {
            var closest = Float.infinity
            for number in 0..<format.pBitChoiceCount {
                let choice = format.pBitChoice(number)
                let lowCode = format.quantize(low, pBit: choice & 1), highCode = format.quantize(high, pBit: choice >> 1)
                let lowMiss = format.dequantize(lowCode, pBit: choice & 1).floats - low
                let highMiss = format.dequantize(highCode, pBit: choice >> 1).floats - high
                let miss = ((lowMiss * lowMiss + highMiss * highMiss) * format.channelMask).sum()
                if miss < closest {
                    closest = miss
                    best.low = lowCode
                    best.high = highCode
                    best.pBits = choice
                }
            }
            evaluate(&best, format: format, pixels: pixels, palette: palette, limit: limit)
            return best
        }
        for number in 0..<format.pBitChoiceCount {
            let choice = format.pBitChoice(number)
            var candidate = SubsetFit()
            candidate.pBits = choice
            candidate.low = format.quantize(low, pBit: choice & 1)
            candidate.high = format.quantize(high, pBit: choice >> 1)
            evaluate(&candidate, format: format, pixels: pixels, palette: palette, limit: best.error)
            if candidate.error < best.error { best = candidate }
        }
        return best
    }

    /// Sets `fit`'s indices and error for its codes.
    @inline(__always)
    static func evaluate(
        _ fit: inout SubsetFit, format: EndpointFormat, pixels: SubsetPixels, palette: UnsafeMutablePointer<SIMD4<Float>>, limit: Float
    ) {
        let result = IndexSelection.select(
            low: format.dequantize(fit.low, pBit: fit.pBits & 1), high: format.dequantize(fit.high, pBit: fit.pBits >> 1),
            indexBits: format.indexBits, pixels: pixels, palette: palette, limit: limit)
        fit.error = result.error
        fit.indices = result.indices
    }

    /// Steps each stored channel's code of each endpoint by one, and flips p-bits, keeping every
    /// change that lowers the error.
    static func perturb(
        _ best: inout SubsetFit, format: EndpointFormat, passes: Int, pixels: SubsetPixels, palette: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        for _ in 0..<passes {
            var improved = false
            for endpoint in 0..<2 {
                for channel in 0..<4 where format.codeBits[channel] > 0 && format.channelMask[channel] > 0 {
                    for step in 0..<2 {
                        var trial = best
                        let code = (endpoint == 0 ? trial.low[channel] : trial.high[channel]) + (step == 0 ? -1 : 1)
                        guard code >= 0, code <= format.maximumCode[channel] else { continue }
                        if endpoint == 0 { trial.low[channel] = code } else { trial.high[channel] = code }
                        evaluate(&trial, format: format, pixels: pixels, palette: palette, limit: best.error)
                        if trial.error < best.error {
                            best = trial
                            improved = true
                        }
                    }
                }
            }
            // Flip the low endpoint's p-bit, then the high's (both at once when they are shared).
            for flip: Int32 in 1...2 where format.pBits != .none {
                var trial = best
                trial.pBits ^= format.pBits == .shared ? 3 : flip
                evaluate(&trial, format: format, pixels: pixels, palette: palette, limit: best.error)
                if trial.error < best.error {
                    best = trial
                    improved = true
                }
                if format.pBits == .shared { break }
            }
            if !improved || best.error == 0 { break }
        }
    }
}
