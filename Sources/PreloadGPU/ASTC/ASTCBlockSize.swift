import Preload

/// The ASTC block footprints PreloadGPU encodes: every block is 16 bytes, so a larger footprint
/// is fewer bits a pixel (8 at 4x4, 5.12 at 5x5, 3.56 at 6x6, 2 at 8x8) and lower quality.
public enum ASTCBlockSize: String, Hashable, Sendable, CaseIterable {
    /// 4x4 pixels a block (`PixelFormat.astc4x4`).
    case fourByFour = "4x4"
    /// 5x5 pixels a block (`PixelFormat.astc5x5`).
    case fiveByFive = "5x5"
    /// 6x6 pixels a block (`PixelFormat.astc6x6`).
    case sixBySix = "6x6"
    /// 8x8 pixels a block (`PixelFormat.astc8x8`).
    case eightByEight = "8x8"

    /// The block size of an ASTC pixel format; nil for the other formats.
    public init?(_ pixelFormat: PixelFormat) {
        guard let size = Self.allCases.first(where: { $0.pixelFormat == pixelFormat }) else { return nil }
        self = size
    }

    /// The block size `width` by `height`; nil for the footprints not listed here.
    public init?(width: Int, height: Int) {
        guard let size = Self.allCases.first(where: { $0.width == width && $0.height == height }) else { return nil }
        self = size
    }

    /// The texture pixel format of this block size.
    public var pixelFormat: PixelFormat {
        switch self {
        case .fourByFour: .astc4x4
        case .fiveByFive: .astc5x5
        case .sixBySix: .astc6x6
        case .eightByEight: .astc8x8
        }
    }

    /// Pixels across a block.
    public var width: Int { pixelFormat.blockWidth }
    /// Pixels down a block.
    public var height: Int { pixelFormat.blockHeight }
}
