/// Ranks a mode's partitions by an estimate of their error, so that only the most promising few
/// get a full endpoint search: per subset, the weighted scatter off the principal axis plus the
/// scatter along it that `2^indexBits` levels leave (`1 / (levels - 1)²` of it).
///
/// Each pixel's moments (weight, weighted colour, weighted products of channels) are summed per
/// subset; a partition's subsets are sums of those, subset 0 the block's total minus the others.
/// A block's scatter per partition is kept, for RGB and for RGBA, two and three subsets, so that
/// modes 1 and 3 (or 0 and 2) share it. Owns its scratch memory.
final class PartitionSearch {
    /// Per pixel: weight, weight × channel (4), weight × products of channels (10).
    private let moments: UnsafeMutablePointer<SIMD16<Float>>
    /// The block's moments summed.
    private var total = SIMD16<Float>()
    /// Which channel mask the moments are for (nil: none yet in this block).
    private var momentsMask: SIMD4<Float>?
    /// Per cache slot (RGB or RGBA × two or three subsets) and partition: scatter off the axes,
    /// and along them.
    private let offAxis: UnsafeMutablePointer<Float>
    private let alongAxis: UnsafeMutablePointer<Float>
    /// Which cache slots hold this block's scatter, one bit each.
    private var filledSlots = 0
    /// Estimated error of each partition, by number, while ranking.
    private let estimates: UnsafeMutablePointer<Float>
    /// Per partition of two and of three subsets (at `(subsetCount - 2) * 64 + partition`): the
    /// pixels of subset 1 (bits 0...15) and of subset 2 (bits 16...31).
    private let subsetPixels: UnsafeMutablePointer<UInt32>

    /// A search with its scratch memory.
    init() {
        moments = .allocate(capacity: 16)
        offAxis = .allocate(capacity: 4 * 64)
        alongAxis = .allocate(capacity: 4 * 64)
        estimates = .allocate(capacity: 64)
        subsetPixels = .allocate(capacity: 128)
        for subsetCount in 2...3 {
            for partition in 0..<64 {
                let subsets = BC7Partitions.subsets(count: subsetCount, partition: partition)
                var pixels: UInt32 = 0
                for pixel in 0..<16 {
                    switch (subsets >> UInt32(pixel * 2)) & 3 {
                    case 1: pixels |= 1 << UInt32(pixel)
                    case 2: pixels |= 1 << UInt32(16 + pixel)
                    default: break
                    }
                }
                subsetPixels[(subsetCount - 2) * 64 + partition] = pixels
            }
        }
    }

    deinit {
        moments.deallocate()
        offAxis.deallocate()
        alongAxis.deallocate()
        estimates.deallocate()
        subsetPixels.deallocate()
    }

    /// Forgets the last block's scatter.
    func reset() {
        filledSlots = 0
        momentsMask = nil
    }

    /// Writes into `best` the numbers of the `count` partitions (of the first `partitionCount`,
    /// each of `subsetCount` subsets) with the smallest estimated error for the 16 pixels and
    /// weights, best first, and returns how many it wrote.
    func rank(
        points: UnsafePointer<SIMD4<Float>>, weights: UnsafePointer<SIMD4<Float>>, channelMask: SIMD4<Float>, subsetCount: Int,
        partitionCount: Int, indexBits: Int, count: Int, into best: UnsafeMutablePointer<Int>
    ) -> Int {
        let slot = (channelMask.w > 0 ? 2 : 0) + subsetCount - 2
        if filledSlots & (1 << slot) == 0 {
            fillScatter(slot: slot, points: points, weights: weights, channelMask: channelMask, subsetCount: subsetCount)
            filledSlots |= 1 << slot
        }
        let levels = Float((1 << indexBits) - 1)
        let alongFactor = 1 / (levels * levels)
        for partition in 0..<partitionCount {
            estimates[partition] = offAxis[slot * 64 + partition] + alongAxis[slot * 64 + partition] * alongFactor
        }
        let wanted = min(count, partitionCount)
        for place in 0..<wanted {
            var smallest = Float.infinity, chosen = 0
            for partition in 0..<partitionCount where estimates[partition] < smallest {
                smallest = estimates[partition]
                chosen = partition
            }
            best[place] = chosen
            estimates[chosen] = .infinity
        }
        return wanted
    }

    /// The scatter off and along the principal axes of every partition's subsets.
    private func fillScatter(
        slot: Int, points: UnsafePointer<SIMD4<Float>>, weights: UnsafePointer<SIMD4<Float>>, channelMask: SIMD4<Float>, subsetCount: Int
    ) {
        if momentsMask != channelMask {
            total = SIMD16<Float>()
            let channelCount = channelMask.sum()
            for pixel in 0..<16 {
                let color = points[pixel] * channelMask
                let weight = (weights[pixel] * channelMask).sum() / channelCount
                let weighted = color * weight
                let moment = SIMD16<Float>(
                    weight, weighted.x, weighted.y, weighted.z, weighted.w, weighted.x * color.x, weighted.x * color.y,
                    weighted.x * color.z, weighted.x * color.w, weighted.y * color.y, weighted.y * color.z, weighted.y * color.w,
                    weighted.z * color.z, weighted.z * color.w, weighted.w * color.w, 0)
                moments[pixel] = moment
                total += moment
            }
            momentsMask = channelMask
        }
        for partition in 0..<64 {
            let pixels = subsetPixels[(subsetCount - 2) * 64 + partition]
            let second = sum(pixels & 0xFFFF), third = sum(pixels >> 16)
            var (off, along) = Self.scatter(total - second - third)
            let (secondOff, secondAlong) = Self.scatter(second)
            off += secondOff
            along += secondAlong
            if subsetCount == 3 {
                let (thirdOff, thirdAlong) = Self.scatter(third)
                off += thirdOff
                along += thirdAlong
            }
            offAxis[slot * 64 + partition] = off
            alongAxis[slot * 64 + partition] = along
        }
    }

    /// The moments of the pixels whose bits are set in `pixels`.
    @inline(__always)
    private func sum(_ pixels: UInt32) -> SIMD16<Float> {
        var result = SIMD16<Float>()
        var remaining = pixels
        while remaining != 0 {
            result += moments[remaining.trailingZeroBitCount]
            remaining &= remaining - 1
        }
        return result
    }

    /// The scatter of the pixels whose moments sum to `moments`, off their principal axis and
    /// along it.
    @inline(__always)
    private static func scatter(_ moments: SIMD16<Float>) -> (off: Float, along: Float) {
        let weight = moments[0]
        guard weight > 0 else { return (0, 0) }
        let sums = SIMD4(moments[1], moments[2], moments[3], moments[4])
        let mean = sums / weight
        let rows = (
            SIMD4(moments[5], moments[6], moments[7], moments[8]) - sums * mean.x,
            SIMD4(moments[6], moments[9], moments[10], moments[11]) - sums * mean.y,
            SIMD4(moments[7], moments[10], moments[12], moments[13]) - sums * mean.z,
            SIMD4(moments[8], moments[11], moments[13], moments[14]) - sums * mean.w
        )
        let trace = rows.0.x + rows.1.y + rows.2.z + rows.3.w
        let axis = EndpointSearch.principalAxis(rows, iterations: 2)
        let along = ((rows.0 * axis.x + rows.1 * axis.y + rows.2 * axis.z + rows.3 * axis.w) * axis).sum()
        return (max(trace - along, 0), along)
    }
}
