/// What identifies one asset in a batch: the same file (reached by any path), entry, plugin and
/// options. Requests with equal keys merge into one load. The hash is computed once, where the
/// key is made, so that merging under the batch's lock only compares.
struct AssetKey: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let entry: String?
    let plugin: String
    let options: AssetOptions
    private let hash: Int

    init(file: FileFacts, plugin: String, options: AssetOptions) {
        device = file.device
        inode = file.inode
        entry = file.entry
        self.plugin = plugin
        self.options = options
        var hasher = Hasher()
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(entry)
        hasher.combine(plugin)
        hasher.combine(options)
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: AssetKey, rhs: AssetKey) -> Bool {
        lhs.hash == rhs.hash && lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.entry == rhs.entry
            && lhs.plugin == rhs.plugin && lhs.options == rhs.options
    }
}
