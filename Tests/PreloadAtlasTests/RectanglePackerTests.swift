import PreloadAtlas
import Testing

/// The public packer plugins use for pages of their own (glyphs rasterized at load).
@Suite struct RectanglePackerTests {
    /// 300 rectangles of mixed sizes, from a fixed seed.
    static let sizes: [(width: Int, height: Int)] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<300).map { _ in (width: 1 + next(40), height: 1 + next(50)) }
    }()

    @Test func everyRectangleKeepsItsSizeOnAPageWithSpacingBetween() throws {
        let packer = RectanglePacker(maxPageSize: 256, spacing: 2)
        let packing = try packer.pack(Self.sizes)
        #expect(packing.placements.count == Self.sizes.count && packing.pageSizes.count > 1)
        for (placement, size) in zip(packing.placements, Self.sizes) {
            #expect(!placement.isRotated && placement.rect.width == size.width && placement.rect.height == size.height)
            let page = packing.pageSizes[placement.page]
            #expect(page.width <= 256 && page.height <= 256 && placement.rect.isInside(width: page.width, height: page.height))
        }
        for (index, a) in packing.placements.enumerated() {
            for b in packing.placements[(index + 1)...] where a.page == b.page {
                let apart =
                    a.rect.maxX + 2 <= b.rect.x || b.rect.maxX + 2 <= a.rect.x || a.rect.maxY + 2 <= b.rect.y || b.rect.maxY + 2 <= a.rect.y
                #expect(apart, "\(a.rect) and \(b.rect) closer than 2 px")
            }
        }
        // Each page is as small as its rectangles allow: one touches its right edge, one its bottom.
        for (page, size) in packing.pageSizes.enumerated() {
            let members = packing.placements.filter { $0.page == page }
            #expect(members.map(\.rect.maxX).max() == size.width && members.map(\.rect.maxY).max() == size.height)
        }
    }

    @Test func theSameRectanglesPackTheSameWay() throws {
        let packer = RectanglePacker(maxPageSize: 512, spacing: 1, allowsRotation: true, powerOfTwoPages: true)
        let first = try packer.pack(Self.sizes), second = try packer.pack(Self.sizes)
        #expect(first.placements == second.placements)
        #expect(first.pageSizes.allSatisfy { $0.width & ($0.width - 1) == 0 && $0.height & ($0.height - 1) == 0 })
    }

    @Test func withoutShrinkingAPageKeepsTheGreedyLayoutCutToItsBounds() throws {
        let sizes = Array(Self.sizes.prefix(60))
        let packer = RectanglePacker(maxPageSize: 256, spacing: 1, shrinksPages: false)
        let packing = try packer.pack(sizes)
        #expect(packing.pageSizes.count == 1 && packing.placements.allSatisfy { $0.page == 0 })
        // The greedy pass fills the square bin from its top-left corner: a page about as wide as tall.
        let page = packing.pageSizes[0]
        #expect(packing.placements.map(\.rect.maxX).max() == page.width && packing.placements.map(\.rect.maxY).max() == page.height)
        #expect(page.width > 128 && page.height > 64, "\(page)")
        let shrunk = try RectanglePacker(maxPageSize: 256, spacing: 1).pack(sizes).pageSizes[0]
        #expect(shrunk.width * shrunk.height <= page.width * page.height)
    }

    @Test func aRectangleLargerThanAPageIsRefusedNamingIt() {
        let packer = RectanglePacker(maxPageSize: 64)
        #expect(throws: RectanglePacker.TooLarge(index: 1, width: 10, height: 65, maxPageSize: 64)) {
            try packer.pack([(width: 64, height: 64), (width: 10, height: 65)])
        }
        #expect(RectanglePacker(maxPageSize: 0, spacing: -3).maxPageSize == 1 && RectanglePacker(spacing: -3).spacing == 0)
    }

    @Test func packingStopsWhenCancelledAndReportsProgress() throws {
        var fractions: [Double] = []
        _ = try RectanglePacker().pack(Self.sizes, progress: { fractions.append($0) })
        #expect(fractions.count == Self.sizes.count && fractions.last == 1 && fractions == fractions.sorted())
        #expect(throws: CancellationError.self) { try RectanglePacker().pack(Self.sizes, isCancelled: { true }) }
    }
}
