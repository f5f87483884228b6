import Foundation
import Preload

/// Reads a compiled SpriteKit atlas, a folder `NAME.atlasc/` holding `NAME.plist` and its pages.
///
/// **Best effort:** Apple calls the compiled format private and subject to change. What is read
/// here follows the structure two independent third-party readers agree on: `images[]` pages
/// (`path`, `size`), each with `subimages[]` whose geometry is written in CGRect/CGPoint/CGSize
/// string syntax. `textureRect` is the rectangle the subimage occupies in the page (y down);
/// `textureRotated` means stored turned 90° clockwise; `spriteOffset` places the trimmed content
/// in an original of `spriteSourceSize`, measured from its bottom-left corner.
enum SpriteKitAtlascFormat {
    /// The property list inside `folder`: `NAME.plist` for `NAME.atlasc`, else the only one.
    static func propertyList(in folder: String, files: AssetFiles) throws -> String {
        let base = AssetPath.fileName(of: folder)
        let expected = folder + "/" + (base.hasSuffix(".atlasc") ? String(base.dropLast(7)) : base) + ".plist"
        if (try? files.facts(of: expected))?.isDirectory == false { return expected }
        let lists = ((try? files.files(under: folder)) ?? []).filter { $0.hasSuffix(".plist") && !$0.contains("/") }
        guard lists.count == 1 else {
            throw AtlasError.malformed(file: folder, detail: "no \(AssetPath.fileName(of: expected)) in the compiled atlas")
        }
        return folder + "/" + lists[0]
    }

    static func read(folder: String, files: AssetFiles) throws -> AtlasDescription {
        let file = try propertyList(in: folder, files: files)
        let data: [UInt8]
        do {
            data = try files.read(file).array
        } catch {
            let reason = (error as? AssetError)?.reason ?? "\(error)"
            throw AtlasError.malformed(file: folder, detail: "\(AssetPath.fileName(of: file)): \(reason)")
        }
        let name = AssetPath.fileName(of: file)
        let root: Any
        do {
            // Xcode writes XML or binary lists. Anything else is refused here: CoreFoundation's
            // parser for old-style (OpenStep) text logs its complaints to stderr.
            guard isXMLOrBinaryPropertyList(data) else { throw CocoaError(.propertyListReadCorrupt) }
            root = try PropertyListSerialization.propertyList(from: Data(data), options: [], format: nil)
        } catch {
            throw AtlasError.malformed(file: file, detail: "\(name): not a property list")
        }
        guard let top = root as? [String: Any], let images = top["images"] as? [[String: Any]] else {
            throw AtlasError.malformed(file: file, detail: "\(name): no 'images' list")
        }
        var description = AtlasDescription(file: file, format: .spriteKitAtlasc, pages: [], frames: [])
        let firstPath = images.first?["path"] as? String ?? ""
        description.scale = firstPath.contains("@3x") ? 3 : firstPath.contains("@2x") ? 2 : 1
        for (pageIndex, image) in images.enumerated() {
            guard let path = image["path"] as? String else {
                throw AtlasError.malformed(file: file, detail: "\(name): images[\(pageIndex)] has no 'path'")
            }
            let size = (image["size"] as? String).flatMap { numbers($0, count: 2) }
            description.pages.append(
                AtlasDescription.Page(
                    path: folder + "/" + path, declaredWidth: size?[0], declaredHeight: size?[1]))
            for (position, subimage) in (image["subimages"] as? [[String: Any]] ?? []).enumerated() {
                description.frames.append(
                    try frame(subimage, page: pageIndex, file: file, place: "\(name): images[\(pageIndex)].subimages[\(position)]"))
            }
        }
        return description
    }

    private static func frame(_ subimage: [String: Any], page: Int, file: String, place: String) throws -> AtlasFrame {
        guard let name = subimage["name"] as? String else {
            throw AtlasError.malformed(file: file, detail: "\(place) has no 'name'")
        }
        let list = AssetPath.fileName(of: file)
        func geometry(_ key: String, _ count: Int) throws -> [Int] {
            guard let text = subimage[key] as? String, let values = numbers(text, count: count) else {
                throw AtlasError.malformed(file: file, detail: "\(list): subimage '\(name)': '\(key)' is missing or not \(count) numbers")
            }
            return values
        }
        let rect = try geometry("textureRect", 4)
        let rotated = subimage["textureRotated"] as? Bool ?? false
        let contentHeight = rotated ? rect[2] : rect[3]
        let offset = subimage["spriteOffset"] == nil ? [0, 0] : try geometry("spriteOffset", 2)
        let source = subimage["spriteSourceSize"] == nil ? [rotated ? rect[3] : rect[2], contentHeight] : try geometry("spriteSourceSize", 2)
        return AtlasFrame(
            name: name, page: page, rect: PixelRect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]),
            rotation: rotated ? .clockwise : .none,
            offsetX: offset[0], offsetY: source[1] - offset[1] - contentHeight,
            sourceWidth: source[0], sourceHeight: source[1])
    }

    /// Whether `data` starts like a binary (`bplist`) or XML property list (after any byte order
    /// mark and white space).
    static func isXMLOrBinaryPropertyList(_ data: [UInt8]) -> Bool {
        if data.starts(with: Array("bplist".utf8)) { return true }
        var start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < data.count, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        return data[start...].starts(with: Array("<?xml".utf8)) || data[start...].starts(with: Array("<plist".utf8))
            || data[start...].starts(with: Array("<!DOCTYPE".utf8))
    }

    /// The numbers in a CG geometry string such as `{{2,3},{40,56}}`, if there are `count`.
    static func numbers(_ text: String, count: Int) -> [Int]? {
        // Out-of-range values (1e300, nan, or just too large to add safely) count as not numbers.
        let limit = Double(AtlasDescription.largestNumber)
        let values = text.split(whereSeparator: { "{}, ".contains($0) }).compactMap { Double($0) }
            .filter { abs($0) <= limit }.map { Int($0.rounded()) }
        return values.count == count ? values : nil
    }
}
