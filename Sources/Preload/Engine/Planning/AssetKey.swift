/// What identifies one asset in a batch: the same file (reached by any path), entry, plugin and
/// options. Requests with equal keys merge into one load.
///
/// The hash is computed once, where the key is made, from the numbers that almost always tell
/// files apart (device, inode, plugin), mixed without a hasher; an entry's name and non-default
/// options are hashed only when there are any. Merging then only compares.
struct AssetKey: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let entry: String?
    /// The plugin, by identity (one registry plans a batch).
    let plugin: ObjectIdentifier
    let options: AssetOptions
    private let hash: Int

    init(file: FileFacts, plugin: RegisteredPlugin, options: AssetOptions) {
        device = file.device
        inode = file.inode
        entry = file.entry
        self.plugin = ObjectIdentifier(plugin)
        self.options = options
        // A multiply-xorshift mix (the dictionary hashes the result again with its own seed).
        var mixed = file.inode &* 0x9E37_79B9_7F4A_7C15
        mixed ^= (file.device &+ UInt64(UInt(bitPattern: self.plugin))) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 31
        if let entry = file.entry { mixed ^= UInt64(UInt(bitPattern: entry.hashValue)) }
        if !options.isEmpty { mixed ^= UInt64(UInt(bitPattern: options.hashValue)) &* 0x94D0_49BB_1331_11EB }
        hash = Int(truncatingIfNeeded: mixed)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// Which of `count` shards of a table the key belongs in (from its hash, not hashed again).
    func shard(among count: Int) -> Int { Int(UInt(bitPattern: hash) % UInt(count)) }

    static func == (lhs: AssetKey, rhs: AssetKey) -> Bool {
        lhs.hash == rhs.hash && lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.plugin == rhs.plugin
            && lhs.entry == rhs.entry && lhs.options == rhs.options
    }
}
