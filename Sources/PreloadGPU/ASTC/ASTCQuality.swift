import CPreloadASTC

/// How hard the ASTC encoder searches: astcenc's quality presets, each much slower than the one
/// before it for a better fit.
///
/// Medium writes exactly the blocks of the `astcenc` command's `-medium`. Fast and thorough use
/// medium's refinement limit, where the command's `-fast` and `-thorough` use their own: astcenc
/// 4.2 keeps one for the whole process, and PreloadGPU fixes it to medium's so that blocks do
/// not depend on which quality encoded first (see ``ASTCEncoder``).
public enum ASTCQuality: String, Hashable, Sendable, CaseIterable {
    /// `ASTCENC_PRE_FAST` (astcenc's `-fast`).
    case fast
    /// `ASTCENC_PRE_MEDIUM` (astcenc's `-medium`).
    case medium
    /// `ASTCENC_PRE_THOROUGH` (astcenc's `-thorough`).
    case thorough

    /// The preset's value, astcenc_config_init's `quality`.
    var preset: Float {
        switch self {
        case .fast: ASTCENC_PRE_FAST
        case .medium: ASTCENC_PRE_MEDIUM
        case .thorough: ASTCENC_PRE_THOROUGH
        }
    }
}
