/// What one quality preset searches: which modes, how many partitions, how hard each endpoint fit.
struct BC7SearchSettings: Sendable {
    /// Modes tried, in order, for blocks whose alpha is 255 everywhere.
    var opaqueModes: [Int]
    /// Modes tried, in order, for blocks with alpha below 255.
    var alphaModes: [Int]
    /// Partitions of a two-subset mode given a full search, best estimates first.
    var twoSubsetCandidates: Int
    /// Partitions of a three-subset mode given a full search.
    var threeSubsetCandidates: Int
    /// Rotations of modes 4 and 5 tried (1: alpha stays alpha; 4: each colour channel in turn
    /// gets alpha's separate endpoints and indices).
    var rotations: Int
    /// Effort of each endpoint fit.
    var effort: EndpointSearchEffort
    /// A block whose best error so far is at most this (weighted squared error summed over its
    /// pixels) tries no further mode.
    var goodEnoughError: Float

    /// The settings of `quality`.
    init(_ quality: EncoderQuality) {
        switch quality {
        case .fast:
            opaqueModes = [6, 1]
            alphaModes = [6, 5, 7]
            twoSubsetCandidates = 1
            threeSubsetCandidates = 1
            rotations = 1
            effort = EndpointSearchEffort(refinements: 1, triesEveryPBit: false, perturbationPasses: 0)
            goodEnoughError = 32
        case .medium:
            opaqueModes = [6, 1, 3, 5]
            alphaModes = [6, 5, 7, 4]
            twoSubsetCandidates = 6
            threeSubsetCandidates = 2
            rotations = 1
            effort = EndpointSearchEffort(refinements: 1, triesEveryPBit: false, perturbationPasses: 1)
            goodEnoughError = 8
        case .thorough:
            opaqueModes = [6, 1, 3, 0, 2, 5, 4]
            alphaModes = [6, 5, 7, 4]
            twoSubsetCandidates = 12
            threeSubsetCandidates = 6
            rotations = 4
            effort = EndpointSearchEffort(refinements: 4, triesEveryPBit: true, perturbationPasses: 4)
            goodEnoughError = 0
        }
    }
}
