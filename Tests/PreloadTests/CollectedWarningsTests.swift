import Preload  // public API only: what a codec plugin turns its library's warnings into
import Testing

/// `AssetWarning.collected`: a codec library's kept warnings, then one counting the rest.
@Suite struct CollectedWarningsTests {
    @Test func keepsTheFirstWarningsAndCountsTheRest() {
        let texts = ["a", "b", "c", "d", "e"]
        let kept = AssetWarning.collected(count: texts.count, kept: 3, library: "libpng", rest: "png.irregular") {
            AssetWarning("png.irregular", "libpng: \(texts[$0])")
        }
        #expect(kept.map(\.message) == ["libpng: a", "libpng: b", "libpng: c", "2 more libpng warnings"])
        #expect(kept.allSatisfy { $0.code == "png.irregular" })
    }

    @Test func givesEveryWarningUnderTheLimitAndNoneForNone() {
        let two = AssetWarning.collected(count: 2, kept: 3, library: "libjpeg", rest: "jpeg.irregular") {
            AssetWarning("jpeg.irregular", "\($0)")
        }
        let none = AssetWarning.collected(count: 0, kept: 3, library: "libjpeg", rest: "jpeg.irregular") { _ in
            Issue.record("asked for a warning of none")
            return AssetWarning("x", "")
        }
        #expect(two.map(\.message) == ["0", "1"] && none.isEmpty)
    }
}
