import Foundation
import Preload
import PreloadAtlas

/// `meta.slices` of Aseprite's sheet export (`--list-slices`, or "Slices" ticked in its export
/// dialog): each slice's `name`, its user data (`color` as `#rrggbbaa`, `data` as its text) and
/// `keys`, each with its `frame`, `bounds` and, when the key has them, `center` and `pivot`.
/// The same slices the `.aseprite` file holds; damage fails by name
/// (``AsepriteError/malformed(detail:)``).
enum SheetSlices {
    /// The slices in `meta`'s `slices` (none when it is missing), and the warnings reading them
    /// gave: the `properties` the export writes for a slice or a tag (`meta.frameTags`), which
    /// this reader does not read, named.
    static func read(meta: SheetFields) throws -> (slices: [AnimationSlice], warnings: [AssetWarning]) {
        var slices = [AnimationSlice](), withProperties = [String]()
        for tag in (meta.values["frameTags"] as? [Any]) ?? [] {
            if let tag = tag as? [String: Any], tag["properties"] != nil { withProperties.append("tag '\(tag["name"] as? String ?? "")'") }
        }
        let list = meta.values["slices"]
        if let list, !(list is NSNull) {
            guard let entries = list as? [Any] else { throw meta.problem("'slices' is not an array") }
            for (index, entry) in entries.enumerated() {
                let fields = try meta.element(entry, place: "slice \(index)")
                let name = try fields.string("name")
                let named = SheetFields(values: fields.values, place: "slice '\(name)'")
                if fields.values["properties"] != nil { withProperties.append("slice '\(name)'") }
                if fields.values["keys"] != nil, !(fields.values["keys"] is [Any]) { throw named.problem("'keys' is not an array") }
                let keys = try ((fields.values["keys"] as? [Any]) ?? []).enumerated().map {
                    try key(try named.element($1, place: "slice '\(name)''s key \($0)"))
                }
                slices.append(AnimationSlice(name: name, keys: keys, userData: try userData(named)))
            }
        }
        let warnings =
            withProperties.isEmpty
            ? [] : [AssetWarning(.asepriteUnreadData, "the properties of \(withProperties.joined(separator: ", ")) are not read")]
        return (slices, warnings)
    }

    /// A key: `frame` and `bounds` required, `center` and `pivot` when given.
    private static func key(_ fields: SheetFields) throws -> AnimationSlice.Key {
        let frame = try fields.int("frame")
        guard frame >= 0 else { throw fields.problem("a negative 'frame', \(frame)") }
        var key = AnimationSlice.Key(frame: frame, bounds: try rect(try fields.object("bounds")))
        if let center = try fields.optionalObject("center") { key.center = try rect(center) }
        if let pivot = try fields.optionalObject("pivot") { key.pivot = AnimationSlice.Point(x: try pivot.int("x"), y: try pivot.int("y")) }
        return key
    }

    /// `x`, `y`, `w` and `h`, the size not negative.
    private static func rect(_ fields: SheetFields) throws -> PixelRect {
        let rect = PixelRect(x: try fields.int("x"), y: try fields.int("y"), width: try fields.int("w"), height: try fields.int("h"))
        guard rect.width >= 0, rect.height >= 0 else { throw fields.problem("a negative size, \(rect.width)x\(rect.height)") }
        return rect
    }

    /// A tag's or slice's user data as the export writes it: `color` (`#rrggbbaa`, or `#rrggbb`
    /// opaque) and `data` (its text), each when given.
    static func userData(_ fields: SheetFields) throws -> AnimationUserData {
        var userData = AnimationUserData(text: fields.values["data"] == nil ? nil : try fields.string("data"))
        guard fields.values["color"] != nil else { return userData }
        let text = try fields.string("color")
        guard let color = AnimationUserData.Color(hex: text) else { throw fields.problem("'color' is not #rrggbbaa: '\(text)'") }
        userData.color = color
        return userData
    }
}
