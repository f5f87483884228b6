// A game that names the PreloadWebP product: it loads a WebP from the repository's test fixtures
// (run from the repository's root, as .ci/run does), and its binary links no libwebp (.ci/run
// checks with readelf): the plugin opens libwebp.so.7 at run time.
import Preload
import PreloadWebP

let coordinator = try PreloadCoordinator(plugins: [WebPLoader()])
let report = try await coordinator.preload(["Tests/PreloadWebPTests/Fixtures/cwebp-lossless.webp"])
for failure in report.failed { print(failure.outcome.error!) }
if let gem = coordinator.assets.texture(named: "Tests/PreloadWebPTests/Fixtures/cwebp-lossless.webp") {
    print("WebP \(gem.width)x\(gem.height), \(gem.pixels.count) bytes of RGBA")
}
