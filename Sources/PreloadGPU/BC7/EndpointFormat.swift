/// How one subset's endpoints are stored and judged: bits per channel, p-bits, index bits, and
/// which channels count. Quantizes endpoints to codes and widens codes back to 8-bit values the
/// way the decoder does.
struct EndpointFormat {
    /// Bits of each channel's code, p-bit excluded; 0 for a channel the mode does not store
    /// (it decodes as 255).
    let codeBits: SIMD4<Int32>
    /// How p-bits are stored.
    let pBits: BC7PBits
    /// Bits of each pixel's index.
    let indexBits: Int
    /// 1 for the channels this fit is judged on, 0 for the others (alpha in modes without it,
    /// or the channels the other half of a mode 4 or 5 block handles).
    let channelMask: SIMD4<Float>
    /// Largest code of each channel.
    let maximumCode: SIMD4<Int32>
    /// ``maximumCode`` as floats.
    let maximumCodeFloats: SIMD4<Float>
    /// Steps of the full value (p-bit included) per unit of an 8-bit value: `(2^bits - 1) / 255`.
    let scale: SIMD4<Float>

    /// A format of `codeBits` per channel.
    init(codeBits: SIMD4<Int32>, pBits: BC7PBits, indexBits: Int, channelMask: SIMD4<Float>) {
        self.codeBits = codeBits
        self.pBits = pBits
        self.indexBits = indexBits
        self.channelMask = channelMask
        maximumCode = (1 &<< codeBits) &- 1
        maximumCodeFloats = maximumCode.floats
        let fullBits = codeBits &+ (pBits == .none ? 0 : 1)
        scale = ((1 &<< fullBits) &- 1).floats / 255
    }

    /// The format of each subset of a mode that stores colour and alpha together (all but 4 and 5).
    init(mode: BC7Mode) {
        self.init(
            codeBits: SIMD4(Int32(mode.colorBits), Int32(mode.colorBits), Int32(mode.colorBits), Int32(mode.alphaBits)), pBits: mode.pBits,
            indexBits: mode.indexBits, channelMask: mode.alphaBits == 0 ? SIMD4(1, 1, 1, 0) : SIMD4(1, 1, 1, 1))
    }

    /// How many p-bit pairs are worth trying: 1 without p-bits, 2 shared, 4 per endpoint.
    var pBitChoiceCount: Int {
        switch pBits {
        case .none: 1
        case .shared: 2
        case .perEndpoint: 4
        }
    }

    /// P-bit pair number `choice` (below ``pBitChoiceCount``): the low endpoint's in bit 0, the
    /// high's in bit 1.
    @inline(__always)
    func pBitChoice(_ choice: Int) -> Int32 { pBits == .shared ? Int32(choice * 3) : Int32(choice) }

    /// The code nearest `value` (8-bit scale, per channel) with p-bit `pBit`.
    @inline(__always)
    func quantize(_ value: SIMD4<Float>, pBit: Int32) -> SIMD4<Int32> {
        let steps = value * scale
        let code = pBits == .none ? steps : (steps - Float(pBit)) * 0.5
        return code.clamped(SIMD4(), maximumCodeFloats).roundedToInt32
    }

    /// The 8-bit values the decoder makes of `code` with p-bit `pBit`.
    @inline(__always)
    func dequantize(_ code: SIMD4<Int32>, pBit: Int32) -> SIMD4<Int32> {
        var full = code, bits = codeBits
        if pBits != .none {
            full = code &<< 1 | SIMD4(repeating: pBit)
            bits = codeBits &+ 1
        }
        let shifted = full &<< (8 &- bits)
        var value = shifted | shifted &>> bits
        value.replace(with: 255, where: codeBits .== 0)
        return value
    }
}

/// One subset's endpoints and indices as a search left them.
struct SubsetFit {
    /// Code of the low endpoint (index 0), per channel.
    var low = SIMD4<Int32>()
    /// Code of the high endpoint (the last index), per channel.
    var high = SIMD4<Int32>()
    /// The two p-bits: the low endpoint's in bit 0, the high's in bit 1.
    var pBits: Int32 = 0
    /// Every pixel's index, 4 bits each at its place in the block; pixels of other subsets are 0.
    var indices: UInt64 = 0
    /// Weighted squared error of the subset's pixels.
    var error: Float = .infinity
}
