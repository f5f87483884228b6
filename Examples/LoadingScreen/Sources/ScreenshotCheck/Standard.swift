import Foundation

/// What "the screenshot shows the expected picture" means. By default, the same pixels within
/// the software renderer's blending rounding. A pack baked with `--gpu` draws block-compressed
/// textures, near their sources but not equal to them (and through OpenGL, whose blending rounds
/// its own way): then a PSNR floor, measured over the colour channels, of every region the check
/// looks at (each sprite, each map cell, the text, the background patch) and of the whole screen,
/// so that one missing or misplaced sprite or tile fails however good the rest is.
enum Standard {
    /// No colour channel differs by more than `tolerance`.
    case exact(tolerance: Int)
    /// PSNR at least `minimum` dB.
    case psnr(minimum: Double)

    /// The default: SDL's software renderer blends a straight-alpha texture over black within 4
    /// of the exact value.
    static let `default` = Standard.exact(tolerance: 4)

    /// How far `drawn` is from `expected` (shown as this standard measures it), and whether that
    /// is near enough.
    func measure(_ drawn: Image, against expected: Image) -> (shown: String, passes: Bool) {
        switch self {
        case .exact(let tolerance):
            let difference = drawn.largestDifference(from: expected)
            return ("largest difference \(difference)", difference <= tolerance)
        case .psnr(let minimum):
            let psnr = drawn.psnr(against: expected)
            return ("PSNR \(Self.decibels(psnr))", psnr >= minimum)
        }
    }

    /// Whether this is an exact standard.
    var isExact: Bool {
        if case .exact = self { return true }
        return false
    }

    /// What it asks: `largest difference at most 4`, `PSNR at least 34.0 dB`.
    var requirement: String {
        switch self {
        case .exact(let tolerance): return "largest difference at most \(tolerance)"
        case .psnr(let minimum): return "PSNR at least \(Self.decibels(minimum))"
        }
    }

    /// Whether this standard tells `drawn` from `mutated`, a picture with a mistake in it.
    func tells(_ drawn: Image, from mutated: Image) -> Bool { !measure(drawn, against: mutated).passes }

    /// `41.3 dB`, or `exact`.
    static func decibels(_ value: Double) -> String { value.isFinite ? String(format: "%.1f dB", value) : "exact" }
}
