import Preload  // public API only, no `@_spi` and no `@testable`: what a third party's codec sees
import PreloadTestSupport
import Testing

/// A format a third party might add: `TOY1`, a width byte, a height byte, then straight RGBA8
/// pixels, rows top first. Bytes after the pixels are forgiven with a warning.
private enum ToyDecoder: ImageDecoder {
    struct Header {
        let width: Int, height: Int
    }

    /// Whether to keep the pixels' alpha, or make them opaque: the format's own setting.
    struct Settings: Hashable, Sendable {
        var dropsAlpha = false
    }

    struct Failure: AssetFailure, Equatable {
        let description: String
        var category: AssetError.Category { .corrupt }
    }

    static let magic = Array("TOY1".utf8)
    static let identifier = "toy"
    static let fileExtensions: Set<String> = ["toy"]
    static let headerLength = 6
    static let defaultSettings = Settings()

    static func file(width: UInt8, height: UInt8, pixels: [UInt8]) -> [UInt8] { magic + [width, height] + pixels }

    static func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: magic) }

    static func estimatedSize(header: [UInt8], options: ImageLoaderSettings<Self>) -> ImageSize? {
        guard header.count >= headerLength, matchesSignature(header) else { return nil }
        return ImageSize(width: Int(header[4]), height: Int(header[5]), isOpaque: options.settings.dropsAlpha)
    }

    static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: ImageLoaderSettings<Self>) throws -> Header {
        guard file.count >= headerLength, file.starts(with: magic) else { throw Failure(description: "not a TOY1 file") }
        return Header(width: Int(file[4]), height: Int(file[5]))
    }

    static func size(of header: Header, options: ImageLoaderSettings<Self>) -> ImageSize {
        ImageSize(width: header.width, height: header.height, isOpaque: options.settings.dropsAlpha)
    }

    static func decode(
        _ file: UnsafeBufferPointer<UInt8>, header: Header, options: ImageLoaderSettings<Self>, into target: ImageDecodeTarget
    ) throws -> [AssetWarning] {
        let byteCount = header.width * header.height * 4
        guard file.count - headerLength >= byteCount else { throw Failure(description: "the pixels end early") }
        try target.writePixels { pixels in
            for row in 0..<header.height {
                try target.checkCancellation()
                let rowBytes = header.width * 4, start = headerLength + row * rowBytes
                pixels.baseAddress!.advanced(by: row * rowBytes).copyMemory(from: file.baseAddress! + start, byteCount: rowBytes)
                if options.settings.dropsAlpha {
                    for alpha in stride(from: row * rowBytes + 3, to: (row + 1) * rowBytes, by: 4) { pixels[alpha] = 255 }
                }
                target.pixelsFinal(upTo: (row + 1) * rowBytes)
                target.reportProgress(Double(row + 1) / Double(header.height))
            }
        }
        let rest = file.count - headerLength - byteCount
        return rest > 0 ? [AssetWarning("toy.trailing-data", "\(rest) bytes after the pixels were ignored")] : []
    }
}

@Suite struct PublicImageDecoderTests {
    static let pixels: [UInt8] = [200, 100, 50, 255, 200, 100, 50, 128, 10, 20, 30, 0, 255, 255, 255, 51]

    @Test func aThirdPartyCodecLoadsThroughTheGenericLoader() async throws {
        let directory = try TemporaryDirectory("toy-codec")
        let plain = try directory.write("plain.toy", ToyDecoder.file(width: 2, height: 2, pixels: Self.pixels))
        let sniffed = try directory.write("sniffed.bin", ToyDecoder.file(width: 2, height: 2, pixels: Self.pixels) + [9, 9])
        let huge = try directory.write("huge.toy", ToyDecoder.file(width: 200, height: 200, pixels: []))
        let broken = try directory.write("broken.toy", Array("TOY2".utf8) + [1, 1, 0, 0, 0, 0])
        var premultiplied = AssetRequest(path: plain, name: "premultiplied")
        premultiplied.options[ImageLoaderSettings<ToyDecoder>.self] = ImageLoaderSettings(alphaMode: .premultiplied, settings: .init())
        let loader = ImageLoader<ToyDecoder>(defaults: ImageLoaderSettings(settings: .init(), limits: ImageLimits(maxWidth: 100)))
        #expect(loader.identifier == "toy" && loader.assetKind == .texture && loader.headerLength == 6)
        #expect(loader.estimatedDecodedBytes(header: ToyDecoder.file(width: 3, height: 5, pixels: [])) == 60)
        let coordinator = try PreloadCoordinator(plugins: [loader])

        let report = try await coordinator.start([
            AssetRequest(path: plain, name: "plain"), premultiplied, AssetRequest(path: sniffed, name: "sniffed"),
            AssetRequest(path: huge), AssetRequest(path: broken),
        ]).finished()

        let straight = try #require(coordinator.assets.asset(named: "plain", as: Texture.self))
        #expect(straight.width == 2 && straight.height == 2 && straight.alphaMode == .straight)
        #expect(straight.pixels == Self.pixels)
        let multiplied = try #require(coordinator.assets.asset(named: "premultiplied", as: Texture.self))
        #expect(multiplied.alphaMode == .premultiplied)
        #expect(multiplied.pixels == [200, 100, 50, 255, 100, 50, 25, 128, 0, 0, 0, 0, 51, 51, 51, 51])
        let warned = try #require(report.loaded.first { $0.request.path == sniffed })
        #expect(warned.warnings.map(\.code) == ["toy.trailing-data"])

        // The one limit check: an `AssetError` naming the file and the limits, before any pixel memory.
        let tooLarge = try #require(report.errors.first { $0.path == huge })
        #expect(tooLarge.category == .limitExceeded)
        #expect(tooLarge.description == "\(huge): image too large: 200x200 needs 160000 decoded bytes; the limits are 100x32768, 1073741824 bytes")
        #expect(
            tooLarge.underlying as? ImageLimitExceeded == ImageLimitExceeded(size: ImageSize(width: 200, height: 200), limits: loader.defaults.limits)
        )
        let failed = try #require(report.errors.first { $0.path == broken })
        #expect(failed.underlying as? ToyDecoder.Failure == ToyDecoder.Failure(description: "not a TOY1 file"))
    }

    @Test func aLoaderWithAFewBytesOfSettingsFitsAnExistentialsInlineBuffer() {
        // Handing the plugin to each file's load then copies no box (see `ImageLimits`).
        #expect(MemoryLayout<ImageLoader<ToyDecoder>>.size <= 3 * MemoryLayout<Int>.size)
    }

    @Test func aCodecDecodesOutsideACoordinatorWithItsOwnSettings() throws {
        var warnings: [AssetWarning] = []
        var fractions: [Double] = []
        let options = ImageLoaderSettings<ToyDecoder>(alphaMode: .premultiplied, settings: .init(dropsAlpha: true))
        let texture = try ToyDecoder.decode(
            ToyDecoder.file(width: 2, height: 2, pixels: Self.pixels) + [0], options: options, progress: { fractions.append($0) },
            warn: { warnings.append($0) })
        #expect(texture.pixels == [200, 100, 50, 255, 200, 100, 50, 255, 10, 20, 30, 255, 255, 255, 255, 255], "opaque: not premultiplied")
        #expect(fractions == [0.5, 1])
        #expect(warnings.map(\.code) == ["toy.trailing-data"])
        #expect(throws: CancellationError.self) {
            try ToyDecoder.decode(ToyDecoder.file(width: 1, height: 1, pixels: [1, 2, 3, 4]), isCancelled: { true })
        }
        #expect(throws: ImageLimitExceeded.self) {
            try ToyDecoder.decode(
                ToyDecoder.file(width: 2, height: 1, pixels: []),
                options: ImageLoaderSettings(settings: .init(), limits: ImageLimits(maxDecodedBytes: 7)))
        }
    }
}
