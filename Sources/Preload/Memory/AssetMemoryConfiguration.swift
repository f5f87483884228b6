extension AssetMemory {
    /// Limits of one pool.
    public struct Configuration: Sendable, Hashable {
        /// Assets smaller than this are plain arrays, not pooled (default 4 KiB: a 32x32 texture
        /// and up, so that a level of sprites reuses the memory of the last one too).
        public var smallestPooledSize: Int
        /// Bytes of released regions kept for reuse at most; 0 gives every region back at once
        /// (default 256 MiB).
        public var retainedLimit: Int
        /// How long a released region is kept before it goes back to the system (default 10 s).
        public var retentionSeconds: Double

        /// Defaults: blocks from 4 KiB are pooled, up to 256 MiB kept for reuse, for 10 seconds.
        public init(smallestPooledSize: Int = 4 << 10, retainedLimit: Int = 256 << 20, retentionSeconds: Double = 10) {
            self.smallestPooledSize = max(smallestPooledSize, 1)
            self.retainedLimit = max(retainedLimit, 0)
            self.retentionSeconds = retentionSeconds.isFinite ? max(retentionSeconds, 0) : 0
        }
    }

    /// What a pool holds right now, and what it has done.
    public struct Statistics: Sendable, Hashable {
        /// Bytes of regions that hold assets now.
        public var liveBytes = 0
        /// Bytes of released regions kept for reuse.
        public var retainedBytes = 0
        /// Loads that got a released region instead of fresh memory.
        public var reusedRegions = 0
        /// Regions made from fresh memory: mapped, or carved out of a fresh slab.
        public var mappedRegions = 0
        /// Address space the pool has mapped: regions of their own and the slabs smaller ones
        /// are carved from. Resident memory is less: a slab's unused and given-up parts hold none.
        public var mappedBytes = 0
    }
}
