/// How a mode stores the p-bit, the extra low bit of every endpoint channel.
enum BC7PBits: Sendable {
    /// No p-bit.
    case none
    /// One p-bit per subset, shared by its two endpoints.
    case shared
    /// One p-bit per endpoint.
    case perEndpoint
}

/// The layout of one of BC7's eight block modes (the BPTC specification's Table M): the decoder
/// reads blocks by it, the encoder writes them by it.
struct BC7Mode: Sendable {
    /// 0...7: the block starts with this many zero bits and a one.
    let number: Int
    /// Subsets (1...3), each with its own pair of endpoints.
    let subsetCount: Int
    /// Bits of the partition number (0 for one subset).
    let partitionBits: Int
    /// Bits of the rotation, which swaps alpha with one colour channel after decoding (modes 4, 5).
    let rotationBits: Int
    /// Bits of the index selection, which swaps the roles of the two index sets (mode 4).
    let indexSelectionBits: Int
    /// Bits of each colour channel of an endpoint, before the p-bit.
    let colorBits: Int
    /// Bits of the alpha channel of an endpoint (0: alpha is 255).
    let alphaBits: Int
    /// How the p-bits are stored.
    let pBits: BC7PBits
    /// Bits of each primary index.
    let indexBits: Int
    /// Bits of each secondary index (modes 4 and 5 only; 0 elsewhere).
    let secondaryIndexBits: Int

    /// Whether alpha has its own endpoints and indices (modes 4 and 5).
    var hasSeparateAlpha: Bool { secondaryIndexBits > 0 }

    /// The eight modes, by number.
    static let all: [BC7Mode] = [
        BC7Mode(
            number: 0, subsetCount: 3, partitionBits: 4, rotationBits: 0, indexSelectionBits: 0, colorBits: 4, alphaBits: 0,
            pBits: .perEndpoint, indexBits: 3, secondaryIndexBits: 0),
        BC7Mode(
            number: 1, subsetCount: 2, partitionBits: 6, rotationBits: 0, indexSelectionBits: 0, colorBits: 6, alphaBits: 0,
            pBits: .shared, indexBits: 3, secondaryIndexBits: 0),
        BC7Mode(
            number: 2, subsetCount: 3, partitionBits: 6, rotationBits: 0, indexSelectionBits: 0, colorBits: 5, alphaBits: 0,
            pBits: .none, indexBits: 2, secondaryIndexBits: 0),
        BC7Mode(
            number: 3, subsetCount: 2, partitionBits: 6, rotationBits: 0, indexSelectionBits: 0, colorBits: 7, alphaBits: 0,
            pBits: .perEndpoint, indexBits: 2, secondaryIndexBits: 0),
        BC7Mode(
            number: 4, subsetCount: 1, partitionBits: 0, rotationBits: 2, indexSelectionBits: 1, colorBits: 5, alphaBits: 6,
            pBits: .none, indexBits: 2, secondaryIndexBits: 3),
        BC7Mode(
            number: 5, subsetCount: 1, partitionBits: 0, rotationBits: 2, indexSelectionBits: 0, colorBits: 7, alphaBits: 8,
            pBits: .none, indexBits: 2, secondaryIndexBits: 2),
        BC7Mode(
            number: 6, subsetCount: 1, partitionBits: 0, rotationBits: 0, indexSelectionBits: 0, colorBits: 7, alphaBits: 7,
            pBits: .perEndpoint, indexBits: 4, secondaryIndexBits: 0),
        BC7Mode(
            number: 7, subsetCount: 2, partitionBits: 6, rotationBits: 0, indexSelectionBits: 0, colorBits: 5, alphaBits: 5,
            pBits: .perEndpoint, indexBits: 2, secondaryIndexBits: 0),
    ]

    /// The 6-bit interpolation weights of 2-, 3- and 4-bit indices, at `weightOffset(bits:) + index`.
    static let weights: [Int32] = [
        0, 21, 43, 64,
        0, 9, 18, 27, 37, 46, 55, 64,
        0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64,
    ]

    /// Where the weights of `bits`-bit indices start in ``weights``.
    @inline(__always)
    static func weightOffset(bits: Int) -> Int { bits == 2 ? 0 : bits == 3 ? 4 : 12 }

    /// An endpoint channel of `bits` bits (p-bit included) widened to 8 bits by repeating its top
    /// bits below it.
    @inline(__always)
    static func expand(_ value: Int32, bits: Int32) -> Int32 {
        let shifted = value << (8 - bits)
        return shifted | shifted >> bits
    }

    /// The spec's interpolation of two 8-bit endpoint values by a 6-bit weight.
    @inline(__always)
    static func interpolate(_ low: Int32, _ high: Int32, weight: Int32) -> Int32 {
        ((64 - weight) * low + weight * high + 32) >> 6
    }
}
