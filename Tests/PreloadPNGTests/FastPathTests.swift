import CPreloadPNG
import CPreloadZlib
import Foundation
import Synchronization
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// The fast path against libpng: on every PNG in the repository and on files built to reach each
/// filter, layout, chunk and decline, the automatic decode, the fast path alone and libpng alone
/// give the same pixels, warnings and errors (or the fast path declines).
@Suite struct FastPathTests {
    /// What a decode gave: its pixels and warnings, its error, or the fast path's decline.
    enum Outcome: Equatable {
        case decoded([UInt8], [String])
        case failed(String)
        case declined(String)
    }

    static func outcome(_ file: [UInt8], _ path: PNGDecodePath, alphaMode: AlphaMode = .straight) -> Outcome {
        var options = PNGLoaderSettings(alphaMode: alphaMode)
        options.settings.path = path
        var warnings: [String] = []
        do {
            let texture = try PNGDecoder.decode(file, options: options, warn: { warnings.append("\($0.code): \($0.message)") })
            return .decoded(texture.pixels.array, warnings)
        } catch let declined as PNGFastPathDeclined {
            return .declined(declined.reason)
        } catch {
            return .failed("\(error)")
        }
    }

    /// Whether the fast path alone decoded `file`, after checking that every path agrees with libpng.
    @discardableResult
    static func agrees(
        _ file: [UInt8], _ name: String, alphaMode: AlphaMode = .straight, sourceLocation: SourceLocation = #_sourceLocation
    )
        -> Bool
    {
        let reference = outcome(file, .libpngOnly, alphaMode: alphaMode)
        let automatic = outcome(file, .automatic, alphaMode: alphaMode)
        if automatic != reference {
            Issue.record("\(name), automatic: \(difference(automatic, reference))", sourceLocation: sourceLocation)
        }
        let fast = outcome(file, .fastPathOnly, alphaMode: alphaMode)
        if case .declined(let reason) = fast {
            lastDecline.withLock { $0 = reason }
            return false
        }
        if fast != reference { Issue.record("\(name), fast path: \(difference(fast, reference))", sourceLocation: sourceLocation) }
        return true
    }

    /// How `outcome` differs from libpng's, in a line.
    static func difference(_ outcome: Outcome, _ reference: Outcome) -> String {
        switch (outcome, reference) {
        case (.decoded(let pixels, let warnings), .decoded(let expected, let expectedWarnings)):
            if warnings != expectedWarnings { return "warnings \(warnings), libpng's \(expectedWarnings)" }
            guard pixels.count == expected.count else { return "\(pixels.count) bytes, libpng's \(expected.count)" }
            let index = pixels.indices.first { pixels[$0] != expected[$0] } ?? 0
            return "byte \(index) (pixel \(index / 4)) is \(pixels[index]), libpng's \(expected[index])"
        case (.decoded, _), (.declined, _): return "decoded or declined, libpng: \(reference)"
        case (.failed(let error), _): return "failed: \(error); libpng: \(reference)"
        }
    }

    /// The reason of the last decline `agrees` met, for messages.
    static let lastDecline = Mutex("")

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every PNG file under Tests/ and sample-assets/ (PngSuite, the fixtures, the sample game).
    static let repositoryPNGs: [URL] = ["Tests", "sample-assets"].flatMap { folder -> [URL] in
        let walker = FileManager.default.enumerator(at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension.lowercased() == "png" }
    }.sorted { $0.path < $1.path }

    @Test func libdeflateIsThere() {
        #expect(PNGFastPath.isAvailable, "libdeflate0 is part of a fresh machine: .ci/system-packages install base")
    }

    @Test func everyPNGInTheRepositoryDecodesAlikeThroughBothPaths() throws {
        #expect(Self.repositoryPNGs.count > 200)
        var taken: [String] = []
        for url in Self.repositoryPNGs {
            let file = [UInt8](try Data(contentsOf: url))
            if Self.agrees(file, url.lastPathComponent) { taken.append(url.lastPathComponent) }
            for alphaMode in [AlphaMode.premultiplied] { Self.agrees(file, url.lastPathComponent, alphaMode: alphaMode) }
        }
        // PngSuite's 8-bit, non-interlaced files with plain chunks, and the sample game's art.
        #expect(taken.count >= 40, "\(taken)")
        for name in ["basn2c08.png", "basn3p08.png", "basn6a08.png", "basn0g08.png", "basn4a08.png", "f04n2c08.png", "tbrn2c08.png"] {
            #expect(taken.contains(name), "\(name)")
        }
    }

    /// Asking for the scalar code is the asking thread's alone: it once set a global that the
    /// decodes of tests running beside this one read (a data race ThreadSanitizer reported).
    @Test func theScalarCodeIsAskedForOnTheCallingThreadOnly() {
        // Synchronous, so that the setting and its check run on one thread.
        preload_png_fast_set_vectors(0)
        defer { preload_png_fast_set_vectors(1) }
        let elsewhere = Locked<Int32?>(nil)
        let read = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            elsewhere.withLock { $0 = preload_png_fast_vectors() }
            read.signal()
        }
        #expect(read.wait(timeout: .now() + 120) == .success)
        #expect(preload_png_fast_vectors() == 0)
        #expect(elsewhere.withLock { $0 } == 1, "another thread's decodes use the vector code")
    }

    @Test func theScalarCodeGivesWhatTheVectorCodeGives() throws {
        preload_png_fast_set_vectors(0)
        defer { preload_png_fast_set_vectors(1) }
        var taken = 0
        for colorType in Self.colorTypes {
            for width in [1, 3, 17] where Self.agrees(Self.image(colorType: colorType, width: width, height: 9), "scalar \(colorType) \(width)") {
                taken += 1
            }
        }
        for url in Self.repositoryPNGs where url.lastPathComponent.hasPrefix("f0") {
            if Self.agrees([UInt8](try Data(contentsOf: url)), "scalar \(url.lastPathComponent)") { taken += 1 }
        }
        #expect(taken >= 15)
    }

    /// Every colour type, at widths that leave vector code a tail, with every filter on rows of
    /// noise (every Paeth choice).
    @Test(arguments: [UInt8(0), 2, 3, 4, 6])
    func everyFilterOnEveryLayout(colorType: UInt8) {
        for width in [1, 2, 3, 5, 6, 16, 17, 33, 100] {
            let taken = Self.agrees(
                Self.image(colorType: colorType, width: width, height: 11, seed: UInt64(width)), "type \(colorType) width \(width)")
            #expect(taken, "type \(colorType) width \(width): \(Self.lastDecline.withLock { $0 })")
        }
    }

    @Test func transparencyKeysAndPartialPaletteAlpha() {
        let grey = Self.image(colorType: 0, width: 20, height: 4, extra: [("tRNS", [0, 7])])
        let rgb = Self.image(colorType: 2, width: 20, height: 4, extra: [("tRNS", [0, 1, 0, 2, 0, 3])])
        let palette = Self.image(colorType: 3, width: 20, height: 4, extra: [("tRNS", [0, 128, 255, 9])])
        for (file, name) in [(grey, "grey key"), (rgb, "rgb key"), (palette, "palette alpha")] {
            let taken = Self.agrees(file, name) && Self.agrees(file, name, alphaMode: .premultiplied)
            #expect(taken, "\(name)")
        }
        let keyed = Self.stored(colorType: 0, width: 3, height: 1, samples: [7, 8, 7], extra: [("tRNS", [0, 7])])
        let keyedPixels = Self.outcome(keyed, .fastPathOnly)
        #expect(keyedPixels == .decoded([7, 7, 7, 0, 8, 8, 8, 255, 7, 7, 7, 0], []))
    }

    /// libpng 1.6.39 makes such a pixel opaque black, without a warning.
    @Test func aPaletteIndexPastThePaletteIsOpaqueBlack() {
        let file = Self.stored(colorType: 3, width: 4, height: 1, samples: [0, 1, 200, 1], paletteEntries: 2)
        let taken = Self.agrees(file, "overrun")
        #expect(taken)
        guard case .decoded(let pixels, let warnings) = Self.outcome(file, .fastPathOnly) else {
            Issue.record("the fast path declined")
            return
        }
        #expect(Array(pixels[8..<12]) == [0, 0, 0, 255])
        #expect(warnings.isEmpty)
    }

    @Test func plainAncillaryChunksAndSplitImageDataStayFast() {
        let accepted: [(String, [(String, [UInt8])])] = [
            ("gAMA and sRGB", [("gAMA", [0, 0, 0xB1, 0x8F]), ("sRGB", [0])]),
            ("pHYs", [("pHYs", [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1])]),
            ("tIME", [("tIME", [0x07, 0xEA, 11, 26, 12, 30, 0])]),
            ("tEXt", [("tEXt", Array("Software\0Preload".utf8))]),
            ("bKGD", [("bKGD", [0, 1, 0, 2, 0, 3])]),
            ("a private chunk", [("prVt", [1, 2, 3])]),
        ]
        for (name, chunks) in accepted {
            let taken = Self.agrees(Self.image(colorType: 2, width: 9, height: 5, extra: chunks), name)
            #expect(taken, "\(name)")
        }
        let split = Self.agrees(Self.image(colorType: 6, width: 40, height: 30, idatPieces: 7), "seven IDATs")
        #expect(split)
    }

    /// Files the fast path leaves to libpng: the automatic decode gives libpng's pixels, warnings
    /// or error, and the decline names its reason.
    @Test func whatItDeclinesDecodesAsLibpngDecodes() {
        let image = Self.image(colorType: 6, width: 8, height: 8)
        var badAncillaryCRC = Self.image(colorType: 6, width: 8, height: 8, extra: [("tEXt", Array("a\0b".utf8))])
        badAncillaryCRC[badAncillaryCRC.count - 12 - 19] ^= 1  // the tEXt's CRC, before IDAT and IEND
        let cases: [(String, [UInt8], String)] = [
            ("16-bit", Self.stored(colorType: 6, width: 2, height: 2, samples: [UInt8](repeating: 9, count: 32), bitDepth: 16), "16-bit samples"),
            (
                "iCCP",
                Self.image(colorType: 2, width: 4, height: 4, extra: [("iCCP", Array("icc\0\0".utf8) + PNGFixture.deflate([1, 2, 3], level: 6))]),
                "cHRM"
            ),
            ("a bad ancillary CRC", badAncillaryCRC, "CRC"),
            ("no IEND", Array(image.dropLast(12)), "IEND"),
            ("a gAMA that is not sRGB's", Self.image(colorType: 2, width: 4, height: 4, extra: [("gAMA", [0, 0, 0x80, 0]), ("sRGB", [0])]), "sRGB"),
            ("a tRNS in an RGBA image", Self.image(colorType: 6, width: 4, height: 4, extra: [("tRNS", [0, 1, 0, 2, 0, 3])]), "alpha"),
        ]
        for (name, file, reason) in cases {
            let declined = file.withUnsafeBufferPointer { PNGFastPath.declineReason(for: $0) }
            #expect(declined?.contains(reason) == true, "\(name): \(declined ?? "taken")")
            let taken = Self.agrees(file, name)
            #expect(!taken, "\(name)")
        }
    }

    /// Image data that does not inflate to exactly its rows: taken by the walk, then left to
    /// libpng, whose error or warning it is.
    @Test func imageDataThatDoesNotInflateExactlyGoesToLibpng() {
        let rows = Self.filteredRows(colorType: 6, width: 6, height: 6, seed: 3)
        let cases: [(String, [UInt8])] = [
            ("one row short", PNGFixture.deflate(Array(rows.dropLast(25)), level: 6)),
            ("one row long", PNGFixture.deflate(rows + rows.prefix(25), level: 6)),
            (
                "a bad Adler-32",
                {
                    var data = PNGFixture.deflate(rows, level: 6); data[data.count - 1] ^= 1; return data
                }()
            ),
            ("bytes after the stream", PNGFixture.deflate(rows, level: 6) + [0, 0]),
            ("a filter type of 5", PNGFixture.deflate([5] + rows.dropFirst(), level: 6)),
        ]
        for (name, data) in cases {
            let file = Self.png(colorType: 6, width: 6, height: 6, idat: data)
            #expect(file.withUnsafeBufferPointer { PNGFastPath.declineReason(for: $0) } == nil, "\(name)")
            let taken = Self.agrees(file, name)
            #expect(!taken, "\(name)")
        }
    }

    /// libpng inflates with the window the zlib header declares; libdeflate does not look.
    @Test func aSmallZlibWindowIsTakenOnlyWhenItHoldsTheWholeImage() {
        let small = Self.filteredRows(colorType: 0, width: 10, height: 10, seed: 4)  // 110 bytes
        let large = Self.filteredRows(colorType: 6, width: 64, height: 64, seed: 5)  // 16,448 bytes
        let smallTaken = Self.agrees(
            Self.png(colorType: 0, width: 10, height: 10, idat: Self.deflate(small, windowBits: 9)), "small window, small image")
        #expect(smallTaken)
        let file = Self.png(colorType: 6, width: 64, height: 64, idat: Self.deflate(large, windowBits: 9))
        #expect(file.withUnsafeBufferPointer { PNGFastPath.declineReason(for: $0) }?.contains("window") == true)
        let largeTaken = Self.agrees(file, "small window, large image")
        #expect(!largeTaken)
    }

    @Test func aLargeImageReportsProgressAndStopsWithinABandOfRows() throws {
        let side = 1024
        let file = PNGFixture.rgba(width: side, height: side, pixels: PNGFixture.noise(width: side, height: side), level: 1)
        var options = PNGLoaderSettings()
        options.settings.path = .fastPathOnly
        var reports: [Double] = []
        _ = try PNGDecoder.decode(file, options: options, progress: { reports.append($0) })
        #expect(reports.count == side / 16 && reports == reports.sorted())
        var cancelled = false
        reports = []
        #expect(throws: CancellationError.self) {
            _ = try PNGDecoder.decode(
                file, options: options, isCancelled: { cancelled },
                progress: {
                    reports.append($0); cancelled = true
                })
        }
        #expect(reports.count == 1)
    }

    /// A small image is decoded in one band: no progress report, which would take its batch's
    /// lock once per image for a fraction nobody sees before the load ends.
    @Test func anImageOfOneBandReportsNoProgress() throws {
        let file = PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16), level: 1)
        var options = PNGLoaderSettings()
        options.settings.path = .fastPathOnly
        var reports: [Double] = []
        let image = try PNGDecoder.decode(file, options: options, progress: { reports.append($0) })
        #expect(image.width == 16 && reports.isEmpty, "\(reports)")
    }

    // MARK: - Building files

    static let colorTypes: [UInt8] = [0, 2, 3, 4, 6]

    static func channels(_ colorType: UInt8) -> Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    /// Noise samples, rows filtered with each filter in turn.
    static func filteredRows(colorType: UInt8, width: Int, height: Int, seed: UInt64, paletteEntries: Int = 256) -> [UInt8] {
        let noise = PNGFixture.noise(width: width * channels(colorType), height: height, seed: seed).prefix(width * channels(colorType) * height)
        let samples = colorType == 3 ? noise.map { $0 % UInt8(paletteEntries - 1) } : Array(noise)
        return filter(samples, width: width, height: height, bpp: channels(colorType))
    }

    static func filter(_ samples: [UInt8], width: Int, height: Int, bpp: Int) -> [UInt8] {
        let stride = samples.count / height
        var out: [UInt8] = []
        for row in 0..<height {
            let type = UInt8(row % 5)
            out.append(type)
            for index in 0..<stride {
                let x = Int(samples[row * stride + index])
                let a = index >= bpp ? Int(samples[row * stride + index - bpp]) : 0
                let b = row > 0 ? Int(samples[(row - 1) * stride + index]) : 0
                let c = row > 0 && index >= bpp ? Int(samples[(row - 1) * stride + index - bpp]) : 0
                let predicted: Int
                switch type {
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predicted = 0
                }
                out.append(UInt8(truncatingIfNeeded: x - predicted))
            }
        }
        return out
    }

    static func image(
        colorType: UInt8, width: Int, height: Int, seed: UInt64 = 1, extra: [(String, [UInt8])] = [], idatPieces: Int = 1
    ) -> [UInt8] {
        let rows = filteredRows(colorType: colorType, width: width, height: height, seed: seed)
        return png(colorType: colorType, width: width, height: height, idat: PNGFixture.deflate(rows, level: 6), extra: extra, idatPieces: idatPieces)
    }

    /// A file of these exact samples (filter type None).
    static func stored(
        colorType: UInt8, width: Int, height: Int, samples: [UInt8], bitDepth: UInt8 = 8, paletteEntries: Int = 256,
        extra: [(String, [UInt8])] = []
    ) -> [UInt8] {
        let stride = samples.count / height
        let rows = (0..<height).flatMap { [0] + samples[($0 * stride)..<(($0 + 1) * stride)] }
        return png(
            colorType: colorType, width: width, height: height, idat: PNGFixture.deflate(rows, level: 6), bitDepth: bitDepth,
            paletteEntries: paletteEntries, extra: extra)
    }

    static func png(
        colorType: UInt8, width: Int, height: Int, idat: [UInt8], bitDepth: UInt8 = 8, paletteEntries: Int = 256,
        extra: [(String, [UInt8])] = [], idatPieces: Int = 1
    ) -> [UInt8] {
        var file =
            PNGFixture.signature + PNGFixture.chunk("IHDR", PNGFixture.ihdr(width: width, height: height, bitDepth: bitDepth, colorType: colorType))
        let beforePalette = extra.filter { ["gAMA", "sRGB", "iCCP"].contains($0.0) }
        for (type, data) in beforePalette { file += PNGFixture.chunk(type, data) }
        if colorType == 3 {
            let palette: [UInt8] = (0..<paletteEntries).flatMap { (entry: Int) -> [UInt8] in [UInt8(entry), UInt8(255 - entry), UInt8(entry / 2)] }
            file += PNGFixture.chunk("PLTE", palette)
        }
        for (type, data) in extra where !beforePalette.contains(where: { $0.0 == type }) { file += PNGFixture.chunk(type, data) }
        let piece = max(1, (idat.count + idatPieces - 1) / idatPieces)
        for start in Swift.stride(from: 0, to: idat.count, by: piece) {
            file += PNGFixture.chunk("IDAT", Array(idat[start..<min(start + piece, idat.count)]))
        }
        return file + PNGFixture.chunk("IEND", [])
    }

    /// A zlib stream with a window of 2^`windowBits` bytes, as libpng writes small images.
    static func deflate(_ data: [UInt8], windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
        var input = data
        let written = input.withUnsafeMutableBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                precondition(CPreloadZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return Int(stream.total_out)
            }
        }
        return Array(out.prefix(written))
    }
}
