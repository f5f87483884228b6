import Preload
import PreloadQOI
import PreloadTestSupport
import Testing

/// The QOI plugin inside a coordinator: claims, options, warnings and strict mode, failures,
/// cancellation, progress weights.
@Suite struct QOILoaderTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory("qoi-loader-tests")
        coordinator = try PreloadCoordinator(plugins: [QOILoader()], configuration: .init(maxConcurrentLoads: 2))
        try directory.write("sprite.qoi", QOIFixtures.file("pillow-sprite"))
        try directory.write("tile.qoi", QOIFixtures.file("reference-tile"))
    }

    @Test func loadsTexturesIntoTheStore() async throws {
        let report = try await coordinator.preload([
            AssetRequest(path: directory.file("sprite.qoi"), name: "sprite"), AssetRequest(path: directory.file("tile.qoi"), name: "tile"),
        ])
        #expect(report.everythingLoaded && report.warned.isEmpty)
        #expect(report.results.map(\.plugin) == ["qoi", "qoi"])
        let sprite = try #require(coordinator.assets.texture(named: "sprite"))
        #expect(sprite.pixels == QOIFixtures.expected("pillow-sprite") && sprite.pixelFormat == .rgba8 && sprite.alphaMode == .straight)
        #expect(coordinator.assets.texture(named: "tile")?.pixels.array == QOIFixtures.expected("reference-tile"))
    }

    @Test func claimsAQOIByContentWhateverItsName() async throws {
        let disguised = try directory.write("sprite.bin", QOIFixtures.file("pillow-sprite"))
        let report = try await coordinator.preload([AssetRequest(path: disguised)])
        #expect(report.results.first?.plugin == "qoi")
        #expect(coordinator.assets.texture(atPath: disguised)?.pixels.array == QOIFixtures.expected("pillow-sprite"))
        #expect(QOILoader().matchesSignature(Array("qoif".utf8)) && !QOILoader().matchesSignature(Array("qoi".utf8)))
    }

    @Test func optionsPerRequestPremultiply() async throws {
        var premultiplied = AssetRequest(path: directory.file("sprite.qoi"), name: "premultiplied")
        premultiplied.options[QOILoaderSettings.self] = QOILoaderSettings(alphaMode: .premultiplied)
        let report = try await coordinator.preload([AssetRequest(path: directory.file("sprite.qoi"), name: "straight"), premultiplied])
        #expect(report.everythingLoaded)
        #expect(coordinator.assets.texture(named: "premultiplied")?.alphaMode == .premultiplied)
        #expect(coordinator.assets.texture(named: "straight")?.alphaMode == .straight)
        let strict = try PreloadCoordinator(plugins: [QOILoader(defaults: QOILoaderSettings(alphaMode: .premultiplied))])
        _ = try await strict.preload([AssetRequest(path: directory.file("tile.qoi"), name: "tile")])
        #expect(strict.assets.texture(named: "tile")?.alphaMode == .premultiplied)
    }

    @Test func badFilesFailAloneWithTheirCause() async throws {
        let fake = try directory.write("fake.qoi", Array("not a qoi".utf8))
        let empty = try directory.write("empty.qoi", [])
        let cut = try directory.write("cut.qoi", Array(QOIFixtures.file("pillow-sprite").prefix(1000)))
        let five = try directory.write("five.qoi", QOIFixtures.qoi(width: 1, height: 1, channels: 5, ops: QOIFixtures.rgb(1, 2, 3)))
        let huge = try directory.write("huge.qoi", QOIFixtures.qoi(width: 100_000, height: 100_000, ops: QOIFixtures.run(62)))
        let report = try await coordinator.preload([
            AssetRequest(path: fake), AssetRequest(path: directory.file("sprite.qoi")), AssetRequest(path: empty), AssetRequest(path: cut),
            AssetRequest(path: five), AssetRequest(path: huge),
        ])
        #expect(report.loaded.count == 1)
        #expect(
            report.errors.map(\.description) == [
                "\(fake): not a QOI file (no 'qoif' signature)", "\(empty): empty file, not a QOI image",
                "\(cut): truncated QOI: the data ends after 1244 of 2304 pixels (48x48)",
                "\(five): corrupt QOI: the header says 5 channels; QOI allows 3 (RGB) or 4 (RGBA)",
                "\(huge): image too large: 100000x100000 needs 40000000000 decoded bytes; the limits are 32768x32768, 1073741824 bytes",
            ])
        #expect(report.errors.map(\.category) == [.corrupt, .truncated, .truncated, .corrupt, .limitExceeded])
        #expect(report.errors.first?.underlying as? QOIDecodeError == .notQOI)
        #expect(coordinator.assets.count == 1, "no partly decoded image was stored")
    }

    @Test func warningsLoadAndStrictModeFailsThem() async throws {
        let unended = try directory.write("unended.qoi", Array(QOIFixtures.file("pillow-sprite").dropLast(8)))
        let lenient = try await coordinator.preload([AssetRequest(path: unended)])
        #expect(lenient.everythingLoaded)
        #expect(lenient.warned.first?.warnings.map(\.code) == [.qoiNoEndMarker])
        let strict = try await coordinator.preload([AssetRequest(path: unended)], options: PreloadOptions(isStrict: true))
        #expect(strict.errors.map(\.category) == [.strict])
        #expect(strict.errors.first?.description == "\(unended): strict: the file ends at the last pixel, without the end marker")
        #expect((strict.errors.first?.underlying as? StrictWarning)?.warning.code == .qoiNoEndMarker)
    }

    @Test func cancellingABatchStopsAnInFlightDecode() async throws {
        // 4096 x 2048 pixels, one op byte each: 512 chunks between checks. Held at its first
        // chunk until the batch is cancelled, then must stop at its next check.
        let big = try directory.write("big.qoi", QOIFixtures.ramp(width: 4096, height: 2048))
        let cancelled = try await cancelledInFlight(QOILoader(), AssetRequest(path: big))
        #expect(cancelled.report.cancelled.count == 1 && cancelled.report.wasCancelled)
        #expect(cancelled.ends == [.stopped], "the decode went on after the cancel")
        #expect(cancelled.assets == 0)
    }

    @Test func aBatchCancelledWhileTheLoadIsHeldEndsCancelled() async throws {
        let gate = Gate()
        let gated = try PreloadCoordinator(plugins: [GatedLoader(QOILoader(), gate: gate)])
        let batch = gated.start([AssetRequest(path: directory.file("sprite.qoi"))])
        #expect(await gate.started.waitWithoutBlocking(seconds: 120))
        batch.cancel()
        gate.release()
        let report = try await batch.finished()
        #expect(report.cancelled.count == 1 && gated.assets.count == 0)
    }

    @Test func progressCanBeWeightedByDecodedSize() async throws {
        let requests = [AssetRequest(path: directory.file("sprite.qoi")), AssetRequest(path: directory.file("tile.qoi"))]
        let batch = coordinator.start(requests, options: PreloadOptions(progressWeighting: .decodedBytes))
        _ = try await batch.finished()
        let decoded: Int64 = 48 * 48 * 4 + 24 * 40 * 4
        #expect(batch.progress.totalUnitCount == decoded)
        let hugeHeader = Array(QOIFixtures.qoi(width: 100_000, height: 100_000, ops: []).prefix(14))
        #expect(QOILoader().estimatedDecodedBytes(header: hugeHeader) == nil)
    }
}
