import Preload
import PreloadAnimation
import PreloadAtlas
import Testing

/// Frames composited from fixtures written from the specification, checked to the bit against
/// Aseprite's integer blend arithmetic worked by hand.
@Suite struct AsepriteCompositingTests {
    typealias F = AsepriteFixture

    func frames(_ file: AsepriteFixture) throws -> SpriteAnimation {
        try AsepriteLoader.animation(from: file.bytes).animation
    }

    @Test func rgbaLayersWithOpacityLinkedAndCompressedCels() throws {
        // The tags chunk's own colour field (Aseprite 1.2's), black: no user data follows to replace it.
        let black = AnimationUserData.Color(red: 0, green: 0, blue: 0)
        let animation = try frames(try F.twoLayers())
        #expect(animation.width == 3 && animation.height == 1)
        #expect(animation.frames.map(\.durationMilliseconds) == [100, 150])
        // (200,100,50) under blue at 128: 200 + (0-200)*128/255 = 100, ...; red 128 under green at
        // 128*128/255=64: alpha 64 + 128 - 32 = 160; the lone top pixel keeps its colour, alpha 200*128/255.
        #expect(animation.canvasPixels(ofFrame: 0) == [100, 50, 152, 255, 153, 102, 0, 160, 9, 8, 7, 100])
        // Frame 2: the linked bottom cel, and the top cel at cel opacity 128 times layer opacity 128 (64).
        #expect(animation.canvasPixels(ofFrame: 1) == [200, 100, 50, 255, 255, 0, 0, 128, 10, 20, 30, 64])
        #expect(animation.pages.count == 1 && animation.pages[0].pixelFormat == .rgba8 && animation.pages[0].alphaMode == .straight)
        #expect(
            animation.tags == [
                AnimationTag(name: "all", from: 0, to: 1, direction: .pingPong, repeatCount: 0, userData: AnimationUserData(color: black)),
                AnimationTag(name: "second", from: 1, to: 1, direction: .forward, repeatCount: 1, userData: AnimationUserData(color: black)),
            ])
    }

    @Test func opacityRoundsAsAsepritesMultiplication() throws {
        var file = F(width: 2, height: 1)
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.layer("under"), F.layer("faded", opacity: 200),
                    F.rawCel(layer: 0, x: 1, width: 1, height: 1, pixels: [0, 0, 0, 255]),
                    F.rawCel(layer: 1, width: 2, height: 1, pixels: [10, 20, 30, 200, 255, 255, 255, 200]),
                ])
        ]
        // 200 * 200 / 255 is 156.9: MUL_UN8 rounds it to 157 (a truncating product gives 156);
        // over black, 0 + 255 * 157 / 255 = 157.
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [10, 20, 30, 157, 157, 157, 157, 255])
    }

    @Test func framesAreTrimmedAndEqualFramesShareOneRegion() throws {
        var file = F(width: 8, height: 8)
        let dot = F.rawCel(layer: 0, x: 2, y: 3, width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 255])
        file.frames = [
            F.Frame(duration: 10, chunks: [F.layer("a"), dot]),
            F.Frame(duration: 20, chunks: [F.rawCel(layer: 0, x: 5, y: 5, width: 1, height: 1, pixels: [9, 9, 9, 9])]),
            F.Frame(duration: 30, chunks: [F.linkedCel(layer: 0, frame: 0)]), F.Frame(duration: 40, chunks: []),
        ]
        let animation = try frames(file)
        #expect(animation.frames.map(\.canvasRect.width) == [2, 1, 2, 0])
        #expect(animation.frames[0].canvasRect == PixelRect(x: 2, y: 3, width: 2, height: 1))
        #expect(animation.frames[0].rect == animation.frames[2].rect && animation.frames[0].rect != animation.frames[1].rect)
        #expect(animation.frames.map(\.durationMilliseconds) == [10, 20, 30, 40])
        var expected = [UInt8](repeating: 0, count: 8 * 8 * 4)
        expected.replaceSubrange((3 * 8 + 2) * 4..<(3 * 8 + 4) * 4, with: [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(animation.canvasPixels(ofFrame: 2) == expected && animation.canvasPixels(ofFrame: 3) == [UInt8](repeating: 0, count: 256))
        #expect(animation.pages.count == 1 && animation.pages[0].width * animation.pages[0].height <= 3 * 2 * 2)
    }

    @Test func multiplyFadesToNormalOverTransparency() throws {
        var file = F(width: 2, height: 1)
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.layer("under"), F.layer("shade", blendMode: 1),
                    F.rawCel(layer: 0, width: 2, height: 1, pixels: [200, 100, 50, 255, 200, 100, 50, 128]),
                    F.rawCel(layer: 1, width: 2, height: 1, pixels: [100, 200, 255, 255, 100, 200, 255, 255]),
                ])
        ]
        // Over an opaque backdrop: the product, (200*100, 100*200, 50*255)/255 rounded = (78, 78, 50).
        // Over alpha 128: normal (100, 200, 255) merged halfway to the product, twice: (83, 108, 101).
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [78, 78, 50, 255, 83, 108, 101, 255])
    }

    @Test func separableModesPerChannel() throws {
        func blended(_ mode: Int, _ backdrop: [UInt8], _ source: [UInt8]) throws -> [UInt8] {
            var file = F(width: 1, height: 1)
            file.frames = [
                F.Frame(
                    duration: 1,
                    chunks: [
                        F.layer("under"), F.layer("over", blendMode: mode), F.rawCel(layer: 0, width: 1, height: 1, pixels: backdrop + [255]),
                        F.rawCel(layer: 1, width: 1, height: 1, pixels: source + [255]),
                    ])
            ]
            return Array(try frames(file).canvasPixels(ofFrame: 0).prefix(3))
        }
        #expect(try blended(2, [200, 100, 0], [100, 200, 0]) == [222, 222, 0])  // screen: b + s - b*s/255
        #expect(try blended(4, [200, 100, 7], [100, 200, 9]) == [100, 100, 7])  // darken
        #expect(try blended(5, [200, 100, 7], [100, 200, 9]) == [200, 200, 9])  // lighten
        #expect(try blended(10, [200, 100, 7], [100, 200, 9]) == [100, 100, 2])  // difference
        #expect(try blended(16, [200, 100, 7], [100, 200, 9]) == [255, 255, 16])  // addition, clamped
        #expect(try blended(17, [200, 100, 7], [100, 200, 9]) == [100, 0, 0])  // subtract, clamped
        #expect(try blended(18, [100, 0, 200], [200, 50, 100]) == [128, 0, 255])  // divide: 100*255/200 rounded
        #expect(try blended(3, [100, 200, 0], [200, 200, 0]) == [157, 231, 0])  // overlay: b < 128 ? s*2b/255 : screen(s, 2b - 255)
    }

    @Test func layerOpacityIsIgnoredWithoutHeaderFlagOne() throws {
        var file = try F.twoLayers()
        file.flags = 0
        let animation = try frames(file)
        // The top layer at full opacity: blue over (200,100,50) replaces it.
        #expect(Array(animation.canvasPixels(ofFrame: 0).prefix(4)) == [0, 0, 255, 255])
    }

    @Test func grayscaleShowsAsEqualChannels() throws {
        var file = F(width: 2, height: 1, depth: 16)
        file.frames = [
            F.Frame(duration: 40, chunks: [F.layer("gray"), try F.compressedCel(layer: 0, width: 2, height: 1, pixels: [100, 255, 50, 0])])
        ]
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [100, 100, 100, 255, 0, 0, 0, 0])
    }

    @Test func indexedWithOnePaletteCompositesByIndexAsTheExport() throws {
        var file = F(width: 3, height: 1, depth: 8)
        file.transparentIndex = 0
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.palette([[10, 20, 30, 255], [255, 0, 0, 255], [0, 0, 255, 128]]),
                    F.layer("background", flags: 1 | 8), F.layer("top"),
                    F.rawCel(layer: 0, width: 3, height: 1, pixels: [0, 0, 0]),
                    F.rawCel(layer: 1, width: 3, height: 1, pixels: [0, 1, 2]),
                ])
        ]
        // Aseprite's sheet of an indexed sprite with one palette is indexed: index 0, the
        // transparent index, shows nothing on either layer (and is transparent in the sheet's
        // PNG, which has no background layer); index 2 replaces what is under it, its palette
        // alpha of 128 and all (no blending of indexes).
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 255, 128])
    }

    @Test func theOldPaletteChunkServesWhenThereIsNoNewOne() throws {
        var file = F(width: 2, height: 1, depth: 8)
        file.transparentIndex = 5
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [F.oldPalette([[1, 2, 3], [4, 5, 6]]), F.layer("only"), F.rawCel(layer: 0, width: 2, height: 1, pixels: [1, 0])])
        ]
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [4, 5, 6, 255, 1, 2, 3, 255])
    }

    @Test func hiddenLayersHiddenGroupsAndReferenceLayersDoNotShow() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.layer("shown"), F.layer("group", flags: 0, type: 1), F.layer("in hidden group", childLevel: 1),
                    F.layer("hidden", flags: 0), F.layer("reference", flags: 1 | 64),
                    F.rawCel(layer: 0, width: 1, height: 1, pixels: [1, 2, 3, 255]),
                    F.rawCel(layer: 2, width: 1, height: 1, pixels: [9, 9, 9, 255]),
                    F.rawCel(layer: 3, width: 1, height: 1, pixels: [8, 8, 8, 255]),
                    F.rawCel(layer: 4, width: 1, height: 1, pixels: [7, 7, 7, 255]),
                ])
        ]
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [1, 2, 3, 255])
    }

    @Test func aCelsZIndexMovesItAboveTheNextLayer() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.layer("low"), F.layer("high"),
                    F.rawCel(layer: 0, zIndex: 1, width: 1, height: 1, pixels: [1, 1, 1, 255]),
                    F.rawCel(layer: 1, width: 1, height: 1, pixels: [2, 2, 2, 255]),
                ])
        ]
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [1, 1, 1, 255])
    }

    @Test func celsAreClippedToTheCanvas() throws {
        var file = F(width: 2, height: 1)
        file.frames = [
            F.Frame(
                duration: 100, chunks: [F.layer("moved"), F.rawCel(layer: 0, x: -1, width: 2, height: 1, pixels: [1, 1, 1, 255, 2, 2, 2, 255])])
        ]
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [2, 2, 2, 255, 0, 0, 0, 0])
    }

    @Test func unreadChunksAndGroupsComposedOnlyInTheEditorAreWarnings() throws {
        var file = F(width: 1, height: 1)
        file.flags = 1 | 2
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.layer("faded group", type: 1, opacity: 100), F.layer("inside", childLevel: 1),
                    F.rawCel(layer: 1, width: 1, height: 1, pixels: [1, 1, 1, 255]), F.chunk(0x2021, [0, 0, 0, 0]),
                ])
        ]
        let warnings = try AsepriteLoader.animation(from: file.bytes).warnings
        #expect(warnings.map(\.code) == [.asepriteGroupBlending, .asepriteUnreadData])
        #expect(
            warnings[0].message
                == "group 'faded group': its own opacity or blend mode shows in Aseprite's editor when it composes groups, not in Aseprite's export; composited as the export"
        )
        #expect(warnings[1].message.contains("1 old slices chunk"))
        // As the export: the group's opacity of 100 does not fade its layer.
        #expect(try frames(file).canvasPixels(ofFrame: 0) == [1, 1, 1, 255])
        let padded = try AsepriteLoader.animation(from: try F.twoLayers().bytes + [0, 0, 0]).warnings
        #expect(padded.map(\.message) == ["the header says 414 bytes; the file has 417", "3 bytes after the last frame are not read"])
        #expect(padded.allSatisfy { $0.code == .asepriteFileSize })
    }
}
