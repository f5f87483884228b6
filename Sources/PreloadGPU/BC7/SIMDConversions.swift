// Lane-by-lane conversions and clamps written out with concrete scalar types: the generic SIMD
// initializers and `clamped(lowerBound:upperBound:)` go through unspecialized paths that
// took a fifth of the encoder's time.

extension SIMD4 where Scalar == Float {
    /// Each lane rounded half up to an integer (lanes must be at least -0.5).
    @inline(__always)
    var roundedToInt32: SIMD4<Int32> {
        let shifted = self + 0.5
        return SIMD4<Int32>(Int32(shifted.x), Int32(shifted.y), Int32(shifted.z), Int32(shifted.w))
    }

    /// Each lane brought within `lower...upper`.
    @inline(__always)
    func clamped(_ lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> SIMD4<Float> {
        var value = self
        value.replace(with: lower, where: value .< lower)
        value.replace(with: upper, where: value .> upper)
        return value
    }

    /// Each lane brought within 0...255.
    @inline(__always)
    var clampedToByte: SIMD4<Float> { clamped(SIMD4(), SIMD4(repeating: 255)) }
}

extension SIMD4 where Scalar == Int32 {
    /// The lanes as floats.
    @inline(__always)
    var floats: SIMD4<Float> { SIMD4<Float>(Float(x), Float(y), Float(z), Float(w)) }
}
