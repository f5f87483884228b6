import Preload

/// A JPEG's EXIF orientation (TIFF tag 0x0112): how the stored pixels must be moved to stand
/// upright. Read from the first APP1 "Exif" segment's first image directory (IFD0), bounded by
/// the segment's length; a missing, malformed or out-of-range value counts as no orientation.
package enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case upright = 1
    /// 2: mirrored left to right.
    case mirrored = 2
    /// 3: upside down (turned 180 degrees).
    case upsideDown = 3
    /// 4: mirrored top to bottom.
    case flipped = 4
    /// 5: mirrored across the top-left to bottom-right diagonal.
    case transposed = 5
    /// 6: must turn 90 degrees clockwise.
    case needsClockwiseTurn = 6
    /// 7: mirrored across the top-right to bottom-left diagonal.
    case transversed = 7
    /// 8: must turn 90 degrees counterclockwise.
    case needsCounterclockwiseTurn = 8

    /// What turning it upright takes, in words.
    package var meaning: String {
        switch self {
        case .upright: "upright"
        case .mirrored: "mirror left to right"
        case .upsideDown: "turn 180 degrees"
        case .flipped: "mirror top to bottom"
        case .transposed: "mirror across the main diagonal"
        case .needsClockwiseTurn: "turn 90 degrees clockwise"
        case .transversed: "mirror across the anti-diagonal"
        case .needsCounterclockwiseTurn: "turn 90 degrees counterclockwise"
        }
    }

    /// Whether turning it upright swaps width and height.
    package var swapsSides: Bool { rawValue >= 5 }

    /// The orientation in `segment`, an APP1 segment's payload starting with "Exif\0\0"; `nil`
    /// when it holds none (or a value outside 1...8).
    package init?(exifSegment segment: UnsafeBufferPointer<UInt8>) {
        let tiff = 6  // after "Exif\0\0"
        guard segment.count >= tiff + 8, segment.starts(with: Array("Exif\0\0".utf8)) else { return nil }
        let littleEndian: Bool
        switch (segment[tiff], segment[tiff + 1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        let reader = ByteReader(segment)
        func read(_ offset: Int, bytes: Int) -> Int? {
            littleEndian
                ? try? reader.littleEndian(at: offset, byteCount: bytes, "an Exif field")
                : try? reader.bigEndian(at: offset, byteCount: bytes, "an Exif field")
        }
        guard read(tiff + 2, bytes: 2) == 42, let directory = read(tiff + 4, bytes: 4).map({ tiff + $0 }),
            let entries = read(directory, bytes: 2)
        else { return nil }
        for entry in 0..<entries {
            let start = directory + 2 + entry * 12
            guard let tag = read(start, bytes: 2) else { return nil }  // past the segment's end
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), one value, held in the first two bytes of the value field.
            guard read(start + 2, bytes: 2) == 3, read(start + 4, bytes: 4) == 1, let value = read(start + 8, bytes: 2) else {
                return nil
            }
            self.init(rawValue: value)
            return
        }
        return nil
    }
}
