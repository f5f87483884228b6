/// Entries the store takes at once (`AssetStore.insert(_:)`): a finished load's
/// assets, read where the batch keeps them. A conforming type is a view, made once per insert;
/// the store is generic over it, so reading an entry is a direct call, not a closure's.
protocol StoreBatch {
    /// How many entries.
    var count: Int { get }
    /// The `index`th entry's name (a reference for the table to keep: read once, moved into
    /// the table's key) and the path it was loaded from, where that is not the name (`nil`
    /// for most).
    func naming(_ index: Int) -> (name: String, path: String?)
    /// The `index`th entry as the table keeps it, loaded from `path` (`nil`: the path is its name).
    func stored(_ index: Int, path: String?) -> AssetStore.Stored
}

extension AssetStore {
    /// What the first pass learns of the few entries whose path is not their own name (a
    /// request named otherwise, a path with `.` or `..`).
    private struct Unusual {
        /// The normalized path, where it is not the name: indexed by path.
        let path: Key?
        /// The path as loaded, where it is not the name (``Stored/path``).
        let written: String?
    }

    /// Stores each of `batch`'s entries under its name, replacing what was there, as
    /// inserting ``Entry`` values does, taking each shard's lock once. Returns how long the
    /// shards' locks were held, in all.
    ///
    /// Two passes. The first, outside the locks, takes each name once (one reference, kept
    /// until the table has it) and reads its bytes once: its hash (``NameScan``, which also
    /// says whether the name is its own normalized path, and where its folder ends) and its
    /// folder, compared with the one before (``FolderSpellings/Run``). The second, under each
    /// shard's lock, moves each name into its key and each entry into the table. (The first
    /// pass built arrays of keys, paths and written paths, each string retained into them and
    /// released with them, the names were read through closures, and folders were recorded in
    /// a third pass: 2,201 instructions per asset in all, 1,237 now; callgrind,
    /// docs/benchmarks.md, "Issue 50: the store stage, round 4".)
    func insert<Batch: StoreBatch>(_ batch: Batch) -> Duration {
        let count = batch.count
        guard count > 0 else { return .zero }
        var hashes: [Int] = []
        hashes.reserveCapacity(count)
        /// Each entry's place in `unusual`, or -1; made at the first unusual entry (most batches: none).
        var unusualAt: [Int32] = []
        var unusual: [Unusual] = []
        var folders = FolderSpellings.Run()
        // The entries grouped by shard (a counting sort), so each shard's lock is taken once.
        var starts = [Int](repeating: 0, count: Self.shardCount + 1)
        // Each name, owned here from the first pass until the second moves it into its key.
        let names = UnsafeMutablePointer<String>.allocate(capacity: count)
        defer { names.deallocate() }  // (each moved out by then)
        for index in 0..<count {
            let (name, path) = batch.naming(index)
            let scan = NameScan.withBytes(of: name) { bytes in
                let scan = NameScan(bytes: bytes)
                if path == nil, scan.isNormalizedPath { folders.note(bytes, lastSlash: scan.lastSlash) }
                return scan
            }
            var found: (hash: Int, unusual: Unusual?) = (scan.hash, nil)
            if path != nil || !scan.isNormalizedPath {
                let normalized = AssetPath.normalized(path ?? name)
                folders.note(normalized)  // (the path stored: the name, where that is its normalized path)
                found.unusual = Unusual(path: normalized == name ? nil : Key(normalized), written: path)
            }
            (names + index).initialize(to: name)
            hashes.append(found.hash)
            starts[found.hash & (Self.shardCount - 1) + 1] += 1
            if let found = found.unusual {
                if unusualAt.isEmpty { unusualAt = [Int32](repeating: -1, count: count) }
                unusualAt[index] = Int32(truncatingIfNeeded: unusual.count)
                unusual.append(found)
            }
        }
        for shard in 0..<Self.shardCount { starts[shard + 1] += starts[shard] }
        var next = starts
        var order = [Int32](repeating: 0, count: count)
        for index in 0..<count {
            let shard = hashes[index] & (Self.shardCount - 1)
            order[next[shard]] = Int32(truncatingIfNeeded: index)
            next[shard] += 1
        }
        var held = Duration.zero
        var indexedByPath: [Int] = []
        for shard in 0..<Self.shardCount where starts[shard] < starts[shard + 1] {
            let range = starts[shard]..<starts[shard + 1]
            let (lockHeld, byPath) = shards[shard].contents.withLock { store -> (Duration, [Int]) in
                let acquired = ContinuousClock.now
                var byPath: [Int] = []
                for position in range {
                    let index = Int(order[position])
                    let place = unusualAt.isEmpty ? -1 : Int(unusualAt[index])
                    let name = Key((names + index).move(), hash: hashes[index])
                    let new = batch.stored(index, path: place >= 0 ? unusual[place].written : nil)
                    store.byteCount += new.asset.byteCount
                    let isDependency = new.isDependency
                    // A path not its name is found by path; a name indexed under it as a path
                    // before still needs replacing (asked before the key moves into the table).
                    if (place >= 0 && unusual[place].path != nil) || (!store.nameByPath.isEmpty && store.nameByPath[name] != nil) {
                        byPath.append(index)
                    }
                    // (Both moved into the table: left to the optimizer, the entry was copied in
                    // and destroyed, ~230 instructions, and the key retained and released.)
                    if let old = store.byName.updateValue(consume new, forKey: consume name) {
                        let name = Key(batch.naming(index).name, hash: hashes[index])  // (a name stored again: fewer)
                        store.byteCount -= old.asset.byteCount
                        if !store.handles.isEmpty { store.handles[name] = nil }  // a new asset: not handed over yet
                        // The same file under the same name as the caller's and as a dependency: the caller's.
                        if isDependency, !old.isDependency,
                            store.byName[name]?.path == old.path
                                || AssetPath.normalized(old.path ?? name.text) == ((place >= 0 ? unusual[place].path : nil)?.text ?? name.text)
                        {
                            store.byName[name]?.isDependency = false
                        }
                    }
                }
                return (ContinuousClock.now - acquired, byPath)
            }
            held += lockHeld
            indexedByPath += byPath
        }
        for index in indexedByPath {  // ... others are found by path in the path's shard
            let name = batch.naming(index).name
            let place = unusualAt.isEmpty ? -1 : Int(unusualAt[index])
            let path = (place >= 0 ? unusual[place].path : nil) ?? Key(name, hash: hashes[index])
            withShard(of: path) { $0.nameByPath[path] = name }
        }
        self.folders.record(folders.folders)
        return held
    }
}

extension AssetStore {
    /// Whether the strings stored at `left` and `right` are the same value, bit for bit (the
    /// same characters, where a request's path and its default name are one string), or else
    /// equal by `==`: strings in memory compared without retaining them.
    static func isSame(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer) -> Bool {
        left.loadUnaligned(as: (UInt64, UInt64).self) == right.loadUnaligned(as: (UInt64, UInt64).self)
            || left.assumingMemoryBound(to: String.self).pointee == right.assumingMemoryBound(to: String.self).pointee
    }
}
