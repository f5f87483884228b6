/// Pixels to fit endpoints to: points with per-channel weights (already multiplied by the
/// fit's channel mask), and each point's place in the block.
struct SubsetPixels {
    /// Colours, 0...255 a channel.
    let points: UnsafeMutablePointer<SIMD4<Float>>
    /// Weight of each channel's squared error.
    let weights: UnsafeMutablePointer<SIMD4<Float>>
    /// The block pixel (0...15) of each point.
    let positions: UnsafeMutablePointer<Int>
    /// How many points.
    let count: Int
    /// The points and weights again, four pixels to a vector: per group of four points, red,
    /// green, blue, alpha, then their four weights (8 vectors); lanes past `count` are zero.
    let lanes: UnsafeMutablePointer<SIMD4<Float>>

    /// Fills ``lanes`` from ``points`` and ``weights``.
    @inline(__always)
    func transpose() {
        let groups = (count + 3) / 4
        lanes.update(repeating: SIMD4(), count: groups * 8)
        for point in 0..<count {
            let group = lanes + point / 4 * 8, lane = point % 4
            let color = points[point], weight = weights[point]
            for channel in 0..<4 {
                group[channel][lane] = color[channel]
                group[4 + channel][lane] = weight[channel]
            }
        }
    }
}

/// Picks each pixel's index between two decoded endpoints: the palette entry with the least
/// weighted squared error, exactly as the decoder interpolates it.
enum IndexSelection {
    /// The error of the best indices for endpoints `low` and `high` (8-bit values) and the
    /// indices, packed 4 bits each at each pixel's place; stops early, with an error above
    /// `limit`, once the error passes it.
    @inline(__always)
    static func select(
        low: SIMD4<Int32>, high: SIMD4<Int32>, indexBits: Int, pixels: SubsetPixels, palette: UnsafeMutablePointer<SIMD4<Float>>,
        limit: Float
    ) -> (error: Float, indices: UInt64) {
        let levels = 1 << indexBits
        let offset = BC7Mode.weightOffset(bits: indexBits)
        for level in 0..<levels {
            let weight = BC7Mode.weights[offset + level]
            palette[level] = (((64 &- weight) &* low &+ weight &* high &+ 32) &>> 6).floats
        }
        var total: Float = 0
        var indices: UInt64 = 0
        if levels <= 8 {
            // Every level for four pixels at a time.
            for group in 0..<(pixels.count + 3) / 4 {
                let vectors = pixels.lanes + group * 8
                let red = vectors[0], green = vectors[1], blue = vectors[2], alpha = vectors[3]
                let redWeight = vectors[4], greenWeight = vectors[5], blueWeight = vectors[6], alphaWeight = vectors[7]
                var best = SIMD4<Float>(repeating: .infinity), bestLevel = SIMD4<Int32>()
                for level in 0..<levels {
                    let entry = palette[level]
                    let redMiss = red - entry.x, greenMiss = green - entry.y, blueMiss = blue - entry.z, alphaMiss = alpha - entry.w
                    var error = redWeight * redMiss * redMiss + greenWeight * greenMiss * greenMiss
                    error += blueWeight * blueMiss * blueMiss + alphaWeight * alphaMiss * alphaMiss
                    let better = error .< best
                    best.replace(with: error, where: better)
                    bestLevel.replace(with: Int32(level), where: better)
                }
                total += best.sum()
                for lane in 0..<min(4, pixels.count - group * 4) {
                    indices |= UInt64(bestLevel[lane]) << UInt64(pixels.positions[group * 4 + lane] * 4)
                }
                if total > limit { return (total, indices) }
            }
            return (total, indices)
        }
        // More levels: project onto the line between the endpoints, then look at the nearest
        // level and its two neighbours (the palette is rounded, not exactly on the line).
        let origin = palette[0]
        let direction = palette[levels - 1] - origin
        let lastLevel = Float(levels - 1)
        for point in 0..<pixels.count {
            let color = pixels.points[point], weight = pixels.weights[point]
            let weighted = direction * weight
            let length = (weighted * direction).sum()
            let along = length > 0 ? ((color - origin) * weighted).sum() / length : 0
            let nearest = Int((along * lastLevel).clamped(to: 0...lastLevel) + 0.5)
            var best = Float.infinity, bestLevel = 0
            for level in max(nearest - 1, 0)...min(nearest + 1, levels - 1) {
                let difference = color - palette[level]
                let error = (difference * difference * weight).sum()
                if error < best {
                    best = error
                    bestLevel = level
                }
            }
            total += best
            indices |= UInt64(bestLevel) << UInt64(pixels.positions[point] * 4)
            if total > limit { return (total, indices) }
        }
        return (total, indices)
    }
}

extension Comparable {
    /// The value brought within `range`.
    @inline(__always)
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
