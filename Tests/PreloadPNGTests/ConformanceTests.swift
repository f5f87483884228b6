import Foundation
import Preload
import PreloadPNG
import Testing

/// PngSuite, decoded pixel by pixel against the expected RGBA8 and RGBA16 arrays.
@Suite struct ConformanceTests {
    static let suite = Bundle.module.url(forResource: "Fixtures/pngsuite", withExtension: nil)!
    static let names: [String] = try! FileManager.default
        .contentsOfDirectory(atPath: suite.appendingPathComponent("png").path)
        .filter { $0.hasSuffix(".png") }
        .map { String($0.dropLast(4)) }
        .sorted()
    static let valid = names.filter { !$0.hasPrefix("x") }
    static let corrupt = names.filter { $0.hasPrefix("x") }
    static let sixteenBit = valid.filter {
        FileManager.default.fileExists(atPath: suite.appendingPathComponent("expected/\($0).rgba16le").path)
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: suite.appendingPathComponent(relative)))
    }

    @Test func suiteIsComplete() {
        #expect(Self.valid.count == 161)
        #expect(Self.corrupt.count == 14)
        #expect(Self.sixteenBit.count == 33)
    }

    @Test(arguments: valid)
    func decodesToExpectedRGBA8(name: String) throws {
        let texture = try PNGDecoder.decode(try Self.bytes("png/\(name).png"))
        let expected = try Self.bytes("expected/\(name).rgba")
        #expect(texture.pixelFormat == .rgba8)
        #expect(texture.width * texture.height * 4 == expected.count)
        #expect(texture.pixels == expected, "\(name): \(firstDifference(texture.pixels.array, expected))")
    }

    @Test(arguments: sixteenBit)
    func decodesToExpectedRGBA16(name: String) throws {
        let options = PNGLoaderSettings(keepsSixteenBitSamples: true)
        let texture = try PNGDecoder.decode(try Self.bytes("png/\(name).png"), options: options)
        let expectedLittleEndian = try Self.bytes("expected/\(name).rgba16le")
        #expect(texture.pixelFormat == .rgba16)
        var samples: [UInt16] = []
        for y in 0..<texture.height {
            for x in 0..<texture.width {
                for channel in 0..<4 { samples.append(texture.sample16(x: x, y: y, channel: channel)) }
            }
        }
        let expected = stride(from: 0, to: expectedLittleEndian.count, by: 2).map {
            UInt16(expectedLittleEndian[$0]) | UInt16(expectedLittleEndian[$0 + 1]) << 8
        }
        #expect(samples == expected, "\(name)")
    }

    @Test(arguments: corrupt)
    func rejectsCorruptFile(name: String) throws {
        let data = try Self.bytes("png/\(name).png")
        #expect {
            _ = try PNGDecoder.decode(data)
        } throws: { error in
            guard let error = error as? PNGDecodeError else { return false }
            // Every rejection names a cause a person can act on.
            return !error.description.isEmpty && error.category != .other
        }
    }

    @Test func interlacedMatchesNonInterlacedTwin() throws {
        let twins = Self.valid.filter { $0.hasPrefix("basi") }
        #expect(twins.count == 15)
        for name in twins {
            let interlaced = try PNGDecoder.decode(try Self.bytes("png/\(name).png"))
            let plain = try PNGDecoder.decode(try Self.bytes("png/basn" + name.dropFirst(4) + ".png"))
            #expect(interlaced.pixels == plain.pixels, "\(name)")
        }
    }

    @Test func premultipliedAlphaMultipliesColourByAlpha() throws {
        let data = try Self.bytes("png/basn6a08.png")
        let straight = try PNGDecoder.decode(data)
        let premultiplied = try PNGDecoder.decode(data, options: PNGLoaderSettings(alphaMode: .premultiplied))
        #expect(premultiplied.alphaMode == .premultiplied)
        var sawPartialAlpha = false
        for index in stride(from: 0, to: straight.pixels.count, by: 4) {
            let alpha = Int(straight.pixels[index + 3])
            sawPartialAlpha = sawPartialAlpha || (alpha > 0 && alpha < 255)
            for channel in 0..<3 {
                let expected = (Int(straight.pixels[index + channel]) * alpha + 127) / 255
                #expect(Int(premultiplied.pixels[index + channel]) == expected)
            }
            #expect(premultiplied.pixels[index + 3] == straight.pixels[index + 3])
        }
        #expect(sawPartialAlpha)
    }

    @Test func premultipliedInterlacedMatchesPlain() throws {
        let options = PNGLoaderSettings(alphaMode: .premultiplied)
        let interlaced = try PNGDecoder.decode(try Self.bytes("png/basi6a16.png"), options: options)
        let plain = try PNGDecoder.decode(try Self.bytes("png/basn6a16.png"), options: options)
        #expect(interlaced.pixels == plain.pixels)
    }

    private func firstDifference(_ actual: [UInt8], _ expected: [UInt8]) -> String {
        guard actual.count == expected.count else { return "size \(actual.count) != \(expected.count)" }
        guard let index = zip(actual, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return "equal"
        }
        return "first difference at byte \(index): \(actual[index]) != \(expected[index])"
    }
}
