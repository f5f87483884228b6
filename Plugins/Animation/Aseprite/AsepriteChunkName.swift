/// How errors name a frame, or a chunk of it ("frame 2 of 12's chunk 3 of 4"), written only when
/// a message needs it: a file's every chunk is named, and formatting each name up front was a
/// share of loading a small file.
struct AsepriteChunkName: CustomStringConvertible, Sendable {
    /// The frame's index, from 0, and the file's frame count.
    let frame: Int, frameCount: Int
    /// The chunk's index, from 0, and the frame's chunk count; `nil` for the frame itself.
    var chunk: (number: Int, count: Int)?

    /// Frame `frame` of `frameCount`.
    init(frame: Int, of frameCount: Int) {
        (self.frame, self.frameCount) = (frame, frameCount)
    }

    /// This frame's chunk `number` of `count`.
    func chunk(_ number: Int, of count: Int) -> AsepriteChunkName {
        var name = self
        name.chunk = (number, count)
        return name
    }

    var description: String {
        let frameName = "frame \(frame + 1) of \(frameCount)"
        guard let chunk else { return frameName }
        return "\(frameName)'s chunk \(chunk.number + 1) of \(chunk.count)"
    }
}
