@testable import Preload
import Testing

/// What is left of a released asset says what it was in its kind's own words (`DescribedAsset`),
/// not in words the core keeps for one kind: a texture as before, a third party's kind as its
/// description says, an asset that does not describe itself by its kind and size.
@Suite struct HandedOverSummaryTests {
    struct Palette: DescribedAsset {
        var colors: [UInt32]
        var kind: AssetKind { "palette" }
        var byteCount: Int { colors.count * 4 }

        func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
            AssetDescription(summary: AssetDescription.counted(colors.count, "color"))
        }
    }

    struct Blob: Asset {
        var kind: AssetKind { "blob" }
        var byteCount: Int { 12 }
    }

    @Test func aReleasedAssetIsSummedUpByItsKindsDescription() {
        let texture = Texture(width: 4, height: 2, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 0, count: 32))
        #expect(HandedOverAsset(releasing: texture, handle: 1).summary == "texture 4x2 rgba8")
        #expect(HandedOverAsset(releasing: Palette(colors: [1, 2, 3]), handle: 1).summary == "palette 3 colors")
        #expect(HandedOverAsset(releasing: Blob(), handle: 1).summary == "blob of 12 bytes")
    }
}
