import Preload

/// Why an Aseprite file did not load, naming the frame, chunk, layer or cel at fault. The
/// description leaves out the file (the coordinator's `AssetError` puts its path in front).
public enum AsepriteError: AssetFailure, Equatable {
    /// The file is not an Aseprite file: no `0xA5E0` magic in its header, or too short to hold it
    /// (a text file named `.aseprite`).
    case notAseprite(detail: String)
    /// The file is damaged: a chunk size past its frame, a cel on a layer that does not exist,
    /// a link to a frame without a cel, compressed pixels that inflate to the wrong size.
    case malformed(detail: String)
    /// The file ends before what its header and frames say it holds (a frame count that lies).
    case truncated(detail: String)
    /// An Aseprite sheet export's sheet is not there: neither the path its `meta.image` names nor
    /// the files tried in its stead beside the JSON (`tried`, in the order tried).
    case sheetNotFound(named: String, tried: [String])
    /// The file uses what this loader does not read: a visible tilemap layer whose tiles are in
    /// an external file, tiles of other than 32 bits, an unknown colour depth.
    case unsupported(detail: String)

    public var category: AssetError.Category {
        switch self {
        case .malformed: .corrupt
        case .truncated: .truncated
        case .notAseprite, .unsupported: .unsupported
        case .sheetNotFound: .fileNotFound
        }
    }

    public var description: String {
        switch self {
        case .notAseprite(let detail): "not an Aseprite file: \(detail)"
        case .malformed(let detail): "malformed Aseprite file: \(detail)"
        case .truncated(let detail): "truncated Aseprite file: \(detail)"
        case .unsupported(let detail): "unsupported Aseprite file: \(detail)"
        case .sheetNotFound(let named, let tried):
            "the sheet '\(named)' the export names is not there"
                + (tried.isEmpty ? "" : ", nor \(tried.joined(separator: " nor ")) beside the JSON")
        }
    }
}
