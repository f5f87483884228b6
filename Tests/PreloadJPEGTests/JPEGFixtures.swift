import Foundation
import Preload
import PreloadJPEG
import PreloadTestSupport
import Testing

/// The files Fixtures/make_fixtures.py wrote: JPEGs from Pillow and cjpeg, and the RGBA8 pixels
/// Pillow decodes from each.
enum JPEGFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// Every fixture with Pillow's pixels beside it, by the encoder and what it exercises.
    static let decodedByPillow = [
        "pillow-444", "pillow-422", "pillow-420", "pillow-progressive-420", "pillow-grey", "pillow-cmyk",
        "cjpeg-440", "cjpeg-411", "cjpeg-progressive-444", "cjpeg-grey-progressive", "cjpeg-rgb", "cjpeg-arithmetic",
        "cjpeg-restart", "ycck",
    ]

    /// The bytes of fixture `name` (with its extension).
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The path of fixture `name` (with its extension).
    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// The JPEG `name` (without its extension).
    static func jpeg(_ name: String) throws -> [UInt8] { try bytes(name + ".jpg") }

    /// Pillow's RGBA8 pixels of `name` (`name.rgba`, or `name.upright.rgba`).
    static func pillowPixels(_ name: String) throws -> [UInt8] { try bytes(name + ".rgba") }

    /// The largest difference between two equally long pixel arrays, in any channel.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count, "\(a.count) bytes against \(b.count)")
        return zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The offsets of the markers (`FF xx`, xx not 00 or FF) in `bytes`, with the marker's code.
    static func markers(in bytes: [UInt8]) -> [(offset: Int, code: UInt8)] {
        var found: [(Int, UInt8)] = []
        for index in 0..<(bytes.count - 1) where bytes[index] == 0xFF && bytes[index + 1] != 0 && bytes[index + 1] != 0xFF {
            found.append((index, bytes[index + 1]))
        }
        return found
    }

    /// The error `data` fails to decode with, or `nil` when it decodes.
    static func decodeError(_ data: [UInt8], options: JPEGLoaderSettings = JPEGLoaderSettings()) -> JPEGDecodeError? {
        do {
            _ = try JPEGDecoder.decode(data, options: options)
            return nil
        } catch let error as JPEGDecodeError {
            return error
        } catch {
            Issue.record("not a JPEGDecodeError: \(error)")
            return nil
        }
    }

    /// The limit error `data` fails to decode with, or `nil` when it fails otherwise or decodes.
    static func limitError(_ data: [UInt8], options: JPEGLoaderSettings = JPEGLoaderSettings()) -> ImageLimitExceeded? {
        thrownError(ImageLimitExceeded.self) { _ = try JPEGDecoder.decode(data, options: options) }
    }
}
