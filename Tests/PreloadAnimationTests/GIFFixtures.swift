import Foundation
import Preload
import PreloadPNG

/// The real GIFs in `Fixtures/GIF` and their references (`make_references.py`: each frame
/// composited as the GIF89a specification and browsers do, delays and loop as Pillow reads them).
enum GIFFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("GIF")

    /// One GIF's reference: `references.json`'s entry.
    struct Reference: Decodable {
        var width: Int
        var height: Int
        /// Each frame's delay in milliseconds as the file gives it (Pillow's `duration`).
        var durations: [Int]
        /// NETSCAPE2.0's loop value (Pillow's `loop`), `nil` without the extension.
        var pillowLoop: Int?
        /// Per frame: whether Pillow's own composite equals the reference.
        var pillowEqual: [Bool]
    }

    static let references: [String: Reference] = try! JSONDecoder().decode(
        [String: Reference].self, from: Data(contentsOf: folder.appendingPathComponent("references.json")))

    /// Every fixture's name, without `.gif`.
    static var names: [String] { references.keys.sorted() }

    /// The file `name.gif`.
    static func file(_ name: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name + ".gif")))
    }

    /// The reference frames of `name`: each the whole screen, RGBA8.
    static func frames(_ name: String) throws -> [[UInt8]] {
        let strip = try PNGDecoder.decode([UInt8](Data(contentsOf: folder.appendingPathComponent(name + ".frames.png")))).pixels.array
        let reference = references[name]!
        let frameBytes = reference.width * reference.height * 4
        return (0..<strip.count / frameBytes).map { Array(strip[$0 * frameBytes..<($0 + 1) * frameBytes]) }
    }

    /// The byte offsets of each Graphic Control Extension's 4 data bytes in `bytes`, of each
    /// image descriptor (its `,`) and of the end of each image's data, walking the file's blocks.
    static func blocks(_ bytes: [UInt8]) -> (controls: [Int], images: [Int], imageEnds: [Int]) {
        var controls = [Int](), images = [Int](), imageEnds = [Int]()
        var position = 13 + (bytes[10] & 0x80 != 0 ? 3 * (2 << Int(bytes[10] & 7)) : 0)
        func passSubBlocks() {
            while bytes[position] != 0 { position += Int(bytes[position]) + 1 }
            position += 1
        }
        while position < bytes.count && bytes[position] != 0x3B {
            if bytes[position] == 0x21 {
                if bytes[position + 1] == 0xF9 { controls.append(position + 3) }
                position += 2
                passSubBlocks()
            } else {
                images.append(position)
                let flags = bytes[position + 9]
                position += 10 + (flags & 0x80 != 0 ? 3 * (2 << Int(flags & 7)) : 0) + 1
                passSubBlocks()
                imageEnds.append(position)
            }
        }
        return (controls, images, imageEnds)
    }

    /// The index of the first pixel where `frame` and `expected` differ, as a message.
    static func firstDifference(_ frame: [UInt8], _ expected: [UInt8], width: Int) -> String? {
        guard frame.count == expected.count else { return "\(frame.count) bytes, not \(expected.count)" }
        guard let byte = frame.indices.first(where: { frame[$0] != expected[$0] }) else { return nil }
        let pixel = byte / 4
        return
            "pixel (\(pixel % width), \(pixel / width)) is \(Array(frame[pixel * 4..<pixel * 4 + 4])), not \(Array(expected[pixel * 4..<pixel * 4 + 4]))"
    }
}
