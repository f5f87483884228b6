import Preload

/// Which object a user data chunk (0x2020) belongs to: the one the last chunk read (Aseprite's
/// spec, "User Data Chunk"). The sprite's comes first, in the first frame; each layer's and
/// cel's and slice's follows its chunk; a tags chunk is followed by one per tag, in the tags'
/// order; a tileset's is followed by its tiles'.
enum AsepriteUserDataOwner {
    case sprite
    case layer(Int)
    case cel(frame: Int, layer: Int)
    /// The tag (an index into the document's tags) the next user data chunk belongs to.
    case tag(Int)
    case slice(Int)
    case tileset
    /// Nothing: the tags before had their user data.
    case nothing
}

extension AsepriteReader {
    /// `data` given to the owner of the chunks read so far: the sprite, a tag (the next one
    /// then waits for the next chunk) or a slice keep it; a layer's or cel's is noted by name (an
    /// animation has no layers), a tileset's counted with the tileset.
    mutating func attach(_ data: AnimationUserData) {
        switch owner {
        case .sprite: document.userData = data
        case .tag(let index):
            document.tags[index].userData = data
            owner = index + 1 < document.tags.count ? .tag(index + 1) : .nothing
        case .slice(let index): document.slices[index].userData = data
        case .layer(let index):
            if !data.isEmpty { document.userDataNotKept.append("layer '\(document.layers[index].name)'") }
        case .cel(let frame, let layer):
            if !data.isEmpty { document.userDataNotKept.append("the cel of layer '\(document.layers[layer].name)' in frame \(frame + 1)") }
        case .tileset: if !data.isEmpty { document.unread["tileset user data", default: 0] += 1 }
        case .nothing: if !data.isEmpty { document.unread["ownerless user data", default: 0] += 1 }
        }
    }
}
