/// What a bake cache did for one bake (``BakeWriter/Summary/cache``): how many entries it gave
/// from each store, how many were made, the time that saved, and what it refused or could not
/// reach.
public struct BakeCacheReport: Sendable {
    /// The cache (``BakeCache/displayName``).
    public var store: String
    /// Entries taken from the local store and from the shared store.
    public var fromLocal = 0, fromShared = 0
    /// Entries made (encoded) by this bake, and written to the cache.
    public var encoded = 0
    /// With a shard (``BakeShard``): entries of the other shards' slices (neither looked up nor
    /// encoded).
    public var leftToOtherShards = 0
    /// The seconds the entries taken from the cache took to make when they were made (one core's
    /// time, as their records keep it).
    public var secondsSaved = 0.0
    /// Each entry refused (`NAME: STORE: why; refused, baked again and replaced`).
    public var refused: [String] = []
    /// One line for each store that failed and was left alone for the rest of the run.
    public var warnings: [String] = []

    /// A report for the cache `store`, nothing counted yet.
    public init(store: String) { self.store = store }

    /// Entries taken from either store.
    public var fromCache: Int { fromLocal + fromShared }
}
