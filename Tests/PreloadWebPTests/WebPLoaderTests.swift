import Foundation
import Preload
import PreloadTestSupport
import PreloadWebP
import Testing

/// The WebP plugin inside the coordinator: claims, header estimates, warnings and strict mode,
/// options per request, failures by name, cancellation mid-decode.
@Suite struct WebPLoaderTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator

    init() throws {
        directory = try TemporaryDirectory("webp-loader-tests")
        coordinator = try PreloadCoordinator(plugins: [WebPLoader()], configuration: .init(maxConcurrentLoads: 2))
    }

    @Test func loadsEveryFixtureThroughACoordinator() async throws {
        let requests = WebPFixtures.compared.map { AssetRequest(path: WebPFixtures.path($0), name: $0) }
        let report = try await coordinator.preload(requests)
        #expect(report.everythingLoaded && report.loaded.count == requests.count)
        #expect(Set(report.results.compactMap(\.plugin)) == ["webp"])
        for name in WebPFixtures.stills {
            let texture = try #require(coordinator.assets.texture(named: name))
            let expectation = try #require(WebPFixtures.expectations[name])
            let difference = WebPFixtures.maxDifference(texture.pixels.array, try WebPFixtures.pillowPixels(name))
            #expect(difference <= (expectation.lossless ? 0 : PillowAgreementTests.lossyTolerance), "\(name)")
        }
        let animated = report.warned.map(\.request.path).sorted()
        #expect(animated == WebPFixtures.animations.map(WebPFixtures.path).sorted())
        #expect(report.warned.allSatisfy { $0.warnings.map(\.code) == [.webpAnimatedFirstFrame] })
    }

    @Test func theHeaderGivesTheDecodedSizeAndTheSignatureClaimsTheFile() throws {
        let plugin = WebPLoader()
        for name in WebPFixtures.expectations.keys {
            let header = Array(try WebPFixtures.bytes(name).prefix(plugin.headerLength))
            let expectation = try #require(WebPFixtures.expectations[name])
            #expect(plugin.matchesSignature(header), "\(name)")
            #expect(plugin.estimatedDecodedBytes(header: header) == expectation.width * expectation.height * 4, "\(name)")
        }
        #expect(!plugin.matchesSignature(Array("RIFF\0\0\0\0WAVE".utf8)) && plugin.estimatedDecodedBytes(header: [1, 2, 3]) == nil)
    }

    @Test func claimsAWebPByContentWhateverItsName() async throws {
        let disguised = try directory.write("sprite.bin", try WebPFixtures.bytes("cwebp-lossless.webp"))
        let report = try await coordinator.preload([AssetRequest(path: disguised)])
        #expect(report.results.first?.plugin == "webp")
        #expect(coordinator.assets.texture(atPath: disguised)?.pixels.array == (try WebPFixtures.pillowPixels("cwebp-lossless.webp")))
    }

    @Test func aStrictBatchFailsAnAnimation() async throws {
        let path = WebPFixtures.path("pillow-animated.webp")
        let report = try await coordinator.preload([AssetRequest(path: path)], options: PreloadOptions(isStrict: true))
        let error = try #require(report.errors.first)
        #expect(error.category == .strict)
        #expect(error.description == "\(path): strict: animated WebP of 3 frames on a 48x32 canvas: loaded the first frame only")
    }

    @Test func optionsPerRequestChooseTheAlphaMode() async throws {
        var premultiplied = AssetRequest(path: WebPFixtures.path("pillow-lossy-alpha.webp"), name: "premultiplied")
        premultiplied.options[WebPLoaderSettings.self] = WebPLoaderSettings(alphaMode: .premultiplied)
        let straight = AssetRequest(path: WebPFixtures.path("pillow-lossy-alpha.webp"), name: "straight")
        #expect(try await coordinator.preload([premultiplied, straight]).everythingLoaded)
        #expect(coordinator.assets.texture(named: "premultiplied")?.alphaMode == .premultiplied)
        #expect(coordinator.assets.texture(named: "straight")?.alphaMode == .straight)
    }

    @Test func damagedFilesFailAloneNamingFileAndCause() async throws {
        let file = try WebPFixtures.bytes("pillow-lossless.webp")
        let cut = try directory.write("cut.webp", Array(file.prefix(300)))
        var flipped = try WebPFixtures.bytes("cwebp-lossy.webp")
        flipped[24] ^= 0xFF
        let corrupt = try directory.write("corrupt.webp", flipped)
        let good = WebPFixtures.path("pillow-lossless.webp")
        let report = try await coordinator.preload([AssetRequest(path: cut), AssetRequest(path: good), AssetRequest(path: corrupt)])
        #expect(report.loaded.map(\.request.path) == [good])
        #expect(
            report.errors.map(\.description).sorted() == [
                "\(corrupt): corrupt WebP: libwebp rejected the bitstream in the file's headers (682 bytes)",
                "\(cut): truncated WebP: the file has 300 bytes, its RIFF header declares \(file.count)",
            ])
        #expect(report.errors.map(\.category).sorted { $0.rawValue < $1.rawValue } == [.corrupt, .truncated])
        #expect(coordinator.assets.texture(atPath: cut) == nil && coordinator.assets.texture(atPath: corrupt) == nil)
    }

    /// The large fixture decodes in 8 chunks: cancelled after the first, the decode stops there.
    @Test func aDecodeStopsBetweenChunksOnceCancelled() throws {
        let file = try WebPFixtures.bytes(WebPFixtures.large)
        var fractions: [Double] = []
        #expect(throws: CancellationError.self) {
            _ = try WebPDecoder.decode(file, isCancelled: { !fractions.isEmpty }, progress: { fractions.append($0) })
        }
        #expect(fractions.count == 1 && fractions[0] < 1, "\(fractions)")

        var uncancelled: [Double] = []
        _ = try WebPDecoder.decode(file, progress: { uncancelled.append($0) })
        #expect(uncancelled.count == 7 && uncancelled == uncancelled.sorted() && uncancelled.last! > 0.5, "\(uncancelled)")
    }

    @Test func cancellingABatchStopsAnInFlightDecode() async throws {
        // Held at its first chunk of rows until the batch is cancelled, then must stop there.
        let cancelled = try await cancelledInFlight(WebPLoader(), AssetRequest(path: WebPFixtures.path(WebPFixtures.large)))
        #expect(cancelled.report.cancelled.count == 1 && cancelled.report.wasCancelled)
        #expect(cancelled.ends == [.stopped], "the decode went on after the cancel")
        #expect(cancelled.assets == 0)
    }
}
