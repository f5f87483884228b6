import Preload

/// An image cut into a uniform grid of frames, the way Phaser's `spritesheet` loader cuts it:
/// frames of ``frameWidth`` x ``frameHeight``, left to right then top to bottom, starting
/// ``margin`` pixels from the top-left corner with ``spacing`` pixels between frames. Partial
/// frames at the right or bottom edge are not frames. Frames are named `"0"`, `"1"`, ... in
/// grid order, counting only the selected range ``startFrame`` ... ``endFrame``.
///
/// Ask the atlas plugin for an image with a grid, and it loads as a ``TextureAtlas`` of one
/// page (the image, decoded by the PNG plugin and stored under its path):
///
/// ```swift
/// import Preload
/// import PreloadAtlas
///
/// let grid = SpriteSheetGrid(frameWidth: 16, frameHeight: 16)
/// let coin = AssetRequest(path: "coin.png", name: "coin", plugin: "atlas",
///                         options: AssetOptions().with(SpriteSheetGrid.self, grid))
/// ```
public struct SpriteSheetGrid: Hashable, Sendable, AssetOptionKey {
    /// The width of every frame, in pixels (at least 1).
    public var frameWidth: Int
    /// The height of every frame, in pixels (at least 1).
    public var frameHeight: Int
    /// The first frame kept, in grid order from 0; a negative value counts from the end (-1 is
    /// the last). Out of range means 0, as in Phaser.
    public var startFrame: Int
    /// The last frame kept; -1 (or out of range) means the last frame of the grid.
    public var endFrame: Int
    /// Pixels before the first column and the first row.
    public var margin: Int
    /// Pixels between neighbouring frames.
    public var spacing: Int

    /// A grid of `frameWidth` x `frameHeight` frames (`frameHeight` defaults to `frameWidth`,
    /// as Phaser's does); sizes below 1 become 1 and negative margins or spacings 0.
    public init(frameWidth: Int, frameHeight: Int? = nil, startFrame: Int = 0, endFrame: Int = -1, margin: Int = 0, spacing: Int = 0) {
        self.frameWidth = max(frameWidth, 1)
        self.frameHeight = max(frameHeight ?? frameWidth, 1)
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.margin = max(margin, 0)
        self.spacing = max(spacing, 0)
    }

    /// A 1x1 grid; a request carries a grid only when one was set (`options.contains`).
    public static let defaultValue = SpriteSheetGrid(frameWidth: 1)

    /// How many whole frames fit across and down a `width` x `height` image.
    public func gridSize(width: Int, height: Int) -> (columns: Int, rows: Int) {
        let largest = AtlasDescription.largestNumber
        let (width, height) = (min(width, largest), min(height, largest))
        let (frameWidth, frameHeight) = (min(self.frameWidth, largest), min(self.frameHeight, largest))
        let (margin, spacing) = (min(self.margin, largest), min(self.spacing, largest))
        return (max(0, (width - margin + spacing) / (frameWidth + spacing)), max(0, (height - margin + spacing) / (frameHeight + spacing)))
    }

    /// The selected frames of a `width` x `height` page, on page 0, named by their number.
    public func frames(width: Int, height: Int) -> [AtlasFrame] {
        let (columns, rows) = gridSize(width: width, height: height)
        let total = columns * rows
        var first = startFrame > total || startFrame < -total ? 0 : startFrame
        if first < 0 { first += total }
        let last = endFrame == -1 || endFrame >= total || endFrame < first ? total - 1 : endFrame
        guard total > 0, first <= last else { return [] }
        return (first...last).enumerated().map { number, cell in
            let x = margin + (cell % columns) * (frameWidth + spacing)
            let y = margin + (cell / columns) * (frameHeight + spacing)
            return AtlasFrame(
                name: String(number), page: 0, rect: PixelRect(x: x, y: y, width: frameWidth, height: frameHeight), rotation: .none,
                offsetX: 0, offsetY: 0, sourceWidth: frameWidth, sourceHeight: frameHeight)
        }
    }
}
