import Foundation
import Preload
import PreloadJPEG
import PreloadTestSupport
import Testing

/// The JPEG plugin inside the coordinator: claims, options per request, warnings and strict mode,
/// progress weighting, cancellation.
@Suite struct JPEGLoaderTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory("jpeg-loader-tests")
        coordinator = try PreloadCoordinator(plugins: [JPEGLoader()], configuration: .init(maxConcurrentLoads: 2))
    }

    @Test func loadsEveryFixtureThroughACoordinator() async throws {
        let requests = JPEGFixtures.decodedByPillow.map { AssetRequest(path: JPEGFixtures.path($0 + ".jpg"), name: $0) }
        let report = try await coordinator.preload(requests)
        #expect(report.everythingLoaded && report.loaded.count == requests.count)
        #expect(report.results.allSatisfy { $0.plugin == "jpeg" })
        for name in JPEGFixtures.decodedByPillow {
            let texture = try #require(coordinator.assets.texture(named: name))
            #expect(texture.pixels.array == (try JPEGFixtures.pillowPixels(name)), "\(name)")
        }
    }

    @Test func claimsItsExtensionsAndItsContentWhateverTheName() async throws {
        let bytes = try JPEGFixtures.jpeg("pillow-420")
        let paths = try ["a.jpg", "b.JPEG", "c.jpe", "d.jfif", "e.bin", "no-extension"].map { try directory.write($0, bytes) }
        let report = try await coordinator.preload(paths.map { AssetRequest(path: $0) })
        #expect(report.everythingLoaded && report.results.map(\.plugin) == Array(repeating: "jpeg", count: paths.count))
        #expect(JPEGLoader().matchesSignature(bytes) && !JPEGLoader().matchesSignature([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func orientationIsAnOptionPerRequestAndAWarningWhenLeftOut() async throws {
        let path = JPEGFixtures.path("exif-6.jpg")
        var upright = AssetRequest(path: path, name: "upright")
        upright.options[JPEGLoaderSettings.self] = JPEGLoaderSettings(appliesExifOrientation: true)
        let report = try await coordinator.preload([AssetRequest(path: path, name: "stored"), upright])
        #expect(report.everythingLoaded)
        let stored = try #require(coordinator.assets.texture(named: "stored"))
        let turned = try #require(coordinator.assets.texture(named: "upright"))
        #expect(stored.width == 13 && stored.height == 7 && turned.width == 7 && turned.height == 13)
        #expect(report.results[0].warnings.map(\.code) == [.jpegExifOrientation])
        #expect(report.results[1].warnings.isEmpty)

        let strict = try PreloadCoordinator(plugins: [JPEGLoader()])
        let refused = try await strict.preload([AssetRequest(path: path)], options: PreloadOptions(isStrict: true))
        let error = try #require(refused.results.first?.outcome.error)
        #expect(error.category == .strict && error.reason.contains("EXIF orientation 6"))
        #expect((error.underlying as? StrictWarning)?.warning.code == .jpegExifOrientation)

        let applying = try PreloadCoordinator(plugins: [JPEGLoader(defaults: JPEGLoaderSettings(appliesExifOrientation: true))])
        let clean = try await applying.preload([AssetRequest(path: path)], options: PreloadOptions(isStrict: true))
        #expect(clean.everythingLoaded && applying.assets.texture(atPath: path)?.width == 7)
    }

    @Test func badFilesFailAloneWithTheirCause() async throws {
        let whole = try JPEGFixtures.jpeg("pillow-420")
        let cut = try directory.write("cut.jpg", Array(whole.prefix(whole.count / 2)))
        let fake = try directory.write("fake.jpg", Array("not a jpeg".utf8))
        let empty = try directory.write("empty.jpg", [])
        let good = try directory.write("good.jpg", whole)
        let report = try await coordinator.preload([cut, fake, good, empty].map { AssetRequest(path: $0) })
        #expect(report.loaded.count == 1 && coordinator.assets.texture(atPath: good) != nil)
        #expect(
            report.errors.map(\.description) == [
                "\(cut): truncated JPEG: the file ends before the JPEG data does",
                "\(fake): not a JPEG file (no SOI marker)", "\(empty): empty file, not a JPEG",
            ])
        #expect(report.errors.map(\.category) == [.truncated, .corrupt, .truncated])
        #expect(report.errors.first?.underlying as? JPEGDecodeError == .truncated("the file ends before the JPEG data does"))
        #expect(coordinator.assets.texture(atPath: cut) == nil, "no partly decoded image")
    }

    @Test func theHeaderGivesTheDecodedSize() async throws {
        let loader = JPEGLoader()
        for name in JPEGFixtures.decodedByPillow {
            #expect(loader.estimatedDecodedBytes(header: Array(try JPEGFixtures.jpeg(name).prefix(loader.headerLength))) == 61 * 37 * 4)
        }
        #expect(loader.estimatedDecodedBytes(header: try JPEGFixtures.bytes("large-flat.jpg")) == 4096 * 4096 * 4)
        let whole = try JPEGFixtures.jpeg("exif-6")
        let frame = try #require(JPEGFixtures.markers(in: whole).first { $0.code == 0xC0 }).offset
        // The marker, its length, precision, height, width and component count: 10 bytes.
        #expect(loader.estimatedDecodedBytes(header: Array(whole.prefix(frame + 9))) == nil, "the SOF cut short")
        #expect(loader.estimatedDecodedBytes(header: Array(whole.prefix(frame + 10))) == 13 * 7 * 4)
        // A frame header after 16 KiB of metadata is out of sight: the file's size is used.
        let bigExif: [UInt8] = [0xFF, 0xE1, 0xFF, 0xF0] + Array(repeating: 0, count: 0xFFEE)
        let late = Array(whole.prefix(2)) + bigExif + Array(whole.dropFirst(2))
        #expect(loader.estimatedDecodedBytes(header: Array(late.prefix(loader.headerLength))) == nil)
        #expect(try JPEGDecoder.decode(late).width == 13, "a large APP1 segment is skipped")

        try directory.write("wide.jpg", try JPEGFixtures.bytes("wide-flat.jpg"))
        try directory.write("small.jpg", try JPEGFixtures.jpeg("pillow-444"))
        let requests = [AssetRequest(path: directory.file("wide.jpg")), AssetRequest(path: directory.file("small.jpg"))]
        let batch = coordinator.start(requests, options: PreloadOptions(progressWeighting: .decodedBytes))
        #expect(try await batch.finished().everythingLoaded)
        let expected: Int64 = 4096 * 256 * 4 + 61 * 37 * 4
        #expect(batch.progress.totalUnitCount == expected)
    }

    @Test func cancellingABatchStopsAnInFlightDecode() async throws {
        // 4096 x 4096, progressive: its scans are read in full (polled for cancellation) before
        // rows are decoded chunk by chunk. The decode is held at its first progress report until
        // the batch is cancelled, then must stop at its next check.
        let cancelled = try await cancelledInFlight(JPEGLoader(), AssetRequest(path: JPEGFixtures.path("large-flat.jpg")))
        #expect(cancelled.report.cancelled.count == 1 && cancelled.report.wasCancelled)
        #expect(cancelled.ends == [.stopped], "the decode went on after the cancel")
        #expect(cancelled.assets == 0)
    }
}
