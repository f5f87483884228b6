import Foundation

/// The sheet Aseprite would export from the example's animation (`Expected/NAME.json` and
/// `.png`, written with the `.aseprite` file by `docs/make-sample-animation.py`): its frames'
/// durations and tags read straight from the JSON, so the check needs no Aseprite reader.
struct AnimationSheet {
    /// The JSON's path.
    let descriptor: String
    /// Each frame's name in the JSON's `frames`, in order, and its duration in milliseconds.
    let frames: [(name: String, duration: Int)]
    /// Each tag's first and last frame.
    let tags: [String: (from: Int, to: Int)]

    /// The sheet exported from the animation `file` names (`hero-walk.aseprite` →
    /// `Expected/hero-walk.json`, beside this program's sources).
    init(exportedFrom file: String) throws {
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }
        descriptor = folder.appendingPathComponent("Expected/\(name).json").path
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: descriptor))) as! [String: Any]
        let frames = json["frames"] as! [String: [String: Any]]
        // Aseprite names hash frames "NAME N.aseprite": their order is N's.
        self.frames = frames.map { (name: $0.key, duration: $0.value["duration"] as! Int) }
            .sorted { Int($0.name.split(separator: " ").last!.split(separator: ".")[0])! < Int($1.name.split(separator: " ").last!.split(separator: ".")[0])! }
        let tags = (json["meta"] as! [String: Any])["frameTags"] as! [[String: Any]]
        self.tags = Dictionary(uniqueKeysWithValues: tags.map { ($0["name"] as! String, (from: $0["from"] as! Int, to: $0["to"] as! Int)) })
    }

    /// The frame a forward tag played forever shows `milliseconds` after it started.
    func frame(at milliseconds: Int, tag: String) -> Int? {
        guard let run = tags[tag] else { return nil }
        let period = (run.from...run.to).reduce(0) { $0 + frames[$1].duration }
        var time = milliseconds % period
        for index in run.from...run.to {
            if time < frames[index].duration { return index }
            time -= frames[index].duration
        }
        return run.to
    }

    /// Frame `index`'s whole canvas, as the sheet holds it.
    func image(ofFrame index: Int) throws -> Image {
        try Expected.texturePackerFrame(frames[index].name, in: descriptor)
    }
}
