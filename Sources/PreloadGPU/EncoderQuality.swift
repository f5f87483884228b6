import CPreloadASTC

/// How hard a GPU block encoder searches: each step is slower than the one before for a closer
/// fit. One scale for every format, so that `preload bake --quality` means the same for BC7 and
/// ASTC.
///
/// - ``BC7Encoder``: fast tries modes 6 and 1 (6, 5 and 7 with alpha), the best estimated
///   partition and one least-squares refinement, and a block stops at the first mode within 0.5 of
///   squared error a sample; medium adds modes 3 and 5 (7 and 4 with alpha), the six best
///   partitions and a pass of endpoint steps, stopping within 0.125; thorough tries every mode, a
///   dozen partitions (six of three subsets), every rotation of modes 4 and 5, four refinements
///   with every p-bit choice and endpoint steps until none helps.
/// - ``ASTCEncoder``: astcenc's presets (`ASTCENC_PRE_FAST`, `_MEDIUM`, `_THOROUGH`). Medium
///   writes exactly the blocks of the `astcenc` command's `-medium`. Fast and thorough use
///   medium's refinement limit, where the command's `-fast` and `-thorough` use their own:
///   astcenc 4.2 keeps one for the whole process, and PreloadGPU fixes it to medium's so that
///   blocks do not depend on which quality encoded first.
public enum EncoderQuality: String, Hashable, Sendable, CaseIterable {
    /// Quickest: for iterating on a level.
    case fast
    /// The default: what a shipping bake uses.
    case medium
    /// Slowest, closest.
    case thorough

    /// astcenc's preset of this quality, astcenc_config_init's `quality`.
    var astcPreset: Float {
        switch self {
        case .fast: ASTCENC_PRE_FAST
        case .medium: ASTCENC_PRE_MEDIUM
        case .thorough: ASTCENC_PRE_THOROUGH
        }
    }
}
