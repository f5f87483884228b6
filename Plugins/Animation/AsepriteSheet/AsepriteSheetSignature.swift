import Preload

/// How ``AsepriteSheetLoader`` tells an Aseprite export with tags from other JSON by its first
/// bytes, and passes TexturePacker's atlases on at their first frame.
enum AsepriteSheetSignature {
    /// Whether `prefix` (a file's first bytes) is an Aseprite export with tags: a JSON object
    /// with `frames` whose first frame has a `duration` (Aseprite writes one in every frame;
    /// TexturePacker never does), and a `meta` holding `frameTags` (Aseprite writes `meta` after
    /// the frames: undecided until the prefix reaches it). An object whose first key is neither
    /// `frames` nor `meta`, or whose first frame has no `duration`, differs at once: an atlas
    /// of any size is passed on after its first few hundred bytes. An export without tags is
    /// left to the atlas plugin, which loads it as a TexturePacker-style atlas, as before.
    static func match(_ prefix: [UInt8]) -> SignatureMatch {
        guard var members = JSONMembers(prefix) else { return .differs }
        var hasFrames = false, hasTags = false, isFirst = true
        while let key = members.nextKey() {
            // Aseprite writes `frames` first (`meta` follows): other JSON is told apart at its first key.
            if isFirst, key != "frames", key != "meta" { return .differs }
            isFirst = false
            if key == "frames" {
                hasFrames = true
                switch firstFrameHasDuration(members, prefix: prefix) {
                case false: return .differs
                case nil: return .undecided
                case true: break
                }
            }
            if key == "meta", var meta = members.nested() {
                while !hasTags, let inner = meta.nextKey() { hasTags = inner == "frameTags" }
                if !hasTags && meta.ranOut { return .undecided }
            }
            if hasFrames && hasTags { return .matches }
        }
        return members.ranOut ? .undecided : .differs
    }

    /// Whether the first frame of the `frames` value `members` is at (an object keyed by name,
    /// or a list) has a `duration` member: `nil` while the prefix ends inside that frame; `true`
    /// when there is no first frame to tell by (an empty export decides by its `meta`).
    private static func firstFrameHasDuration(_ members: JSONMembers, prefix: [UInt8]) -> Bool? {
        var frame: JSONMembers?
        if var byName = members.nested() {
            guard byName.nextKey() != nil else { return byName.ranOut ? nil : true }
            guard let first = byName.nested() else { return byName.ranOut ? nil : false }
            frame = first
        } else {
            // A list: its first element, read as the object it should be.
            var start = members.position
            while start < prefix.count, [0x20, 0x0A, 0x0D, 0x09].contains(prefix[start]) { start += 1 }
            guard start < prefix.count else { return nil }
            guard prefix[start] == UInt8(ascii: "[") else { return false }
            let rest = Array(prefix[(start + 1)...])
            frame = JSONMembers(rest)
            if frame == nil {
                guard let next = rest.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return nil }
                return next == UInt8(ascii: "]") ? true : false
            }
        }
        guard var fields = frame else { return false }
        while let key = fields.nextKey() {
            if key == "duration" { return true }
        }
        return fields.ranOut ? nil : false
    }
}
