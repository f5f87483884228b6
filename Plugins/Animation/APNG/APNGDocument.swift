/// An APNG's structure as its chunks give it: the header, the chunks every frame's image needs,
/// the default image's data and the frames, each with its `fcTL` and its image data's place in
/// the file. No pixel is decoded yet.
struct APNGDocument {
    /// What one `fcTL` says of its frame.
    struct FrameControl: Equatable {
        /// The chunk's sequence number.
        var sequence: Int
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        /// `delay_num` / `delay_den` seconds; a denominator of 0 means 100.
        var delayNumerator: Int
        var delayDenominator: Int
        /// `APNG_DISPOSE_OP_NONE` 0, `_BACKGROUND` 1, `_PREVIOUS` 2.
        var dispose: UInt8
        /// `APNG_BLEND_OP_SOURCE` 0, `_OVER` 1.
        var blend: UInt8

        /// How long the frame shows, in milliseconds: `delay_num / delay_den` seconds (a
        /// denominator of 0 is 100, as the specification says), rounded to the nearest
        /// millisecond, halves up. A numerator of 0 is 0 ms, as the file says.
        var durationMilliseconds: Int {
            let denominator = delayDenominator == 0 ? 100 : delayDenominator
            return (delayNumerator * 1000 + denominator / 2) / denominator
        }
    }

    /// One frame: its `fcTL` and its image data, the `IDAT` chunks' (the default image is the
    /// first frame) or its `fdAT` chunks' after their sequence numbers.
    struct Frame {
        var control: FrameControl
        var data: [Range<Int>] = []
        /// Whether the frame's image data is the default image's (`IDAT`).
        var isDefaultImage: Bool
    }

    /// The canvas's width (IHDR's).
    var width = 0
    /// The canvas's height (IHDR's).
    var height = 0
    /// IHDR's 13 data bytes: a frame's still PNG takes them with its own width and height.
    var header: [UInt8] = []
    /// `PLTE` and `tRNS`, in file order: what decoding any frame's image data needs besides the
    /// header (the PNG decoder takes samples as stored, so gamma and colour chunks change nothing).
    var sharedChunks: [PNGChunk] = []
    /// The `IDAT` chunks' data.
    var defaultImage: [Range<Int>] = []
    /// The frames, in file order; empty when the file is not animated.
    var frames: [Frame] = []
    /// How many frames the `acTL` promises (0 when there is no valid `acTL`).
    var promisedFrames = 0
    /// `acTL`'s `num_plays`: how many times the animation plays, 0 forever.
    var plays = 0
    /// Why the file is not an animation, when it is not (no `acTL`, an invalid one).
    var notAnimated: String?
}
