import Foundation
import PreloadGPU

/// The example's command line.
struct Options {
    /// The level's folder: `--assets DIR`, else `sample-assets` in the current folder, else the
    /// repository's own `sample-assets` (found from this source file), so the example runs from
    /// any folder.
    var assets: String
    var frames: Int?
    var screenshot: String?
    /// More to stream in with the level (a folder), for measuring the hand-off's frame times.
    var extra: String?
    var frameBudget: Duration = .milliseconds(2)
    /// Print a line per loading frame: the fraction the bar shows and the fraction on the GPU.
    var trace = false
    /// `--bake FILE`: bake the level into a pack at FILE and stop (the example's build step).
    var bakeTo: String?
    /// `--gpu bc|astc` with `--bake`: bake the textures GPU-ready, BC7 or ASTC 4x4 with their
    /// mipmaps, rather than RGBA8.
    var gpu: GPUTextureBake.Target?
    /// `--baked FILE`: load the level from a baked pack instead of its loose files.
    var baked: String?
    /// `--decode-on-cpu` with `--baked`: draw with SDL's software renderer and decode a GPU
    /// pack's compressed textures on the CPU, as on a machine without OpenGL.
    var decodesOnCPU = false
    /// `--animation-at MS`: show the animation as it is MS milliseconds after it started, on
    /// every frame (CI's screenshot per frame); without it, the animation plays from when the
    /// level is first drawn.
    var animationAt: Duration?

    static let usage =
        "usage: LoadingScreen [--assets DIR | --baked FILE.bake [--decode-on-cpu]] [--frames N] [--screenshot FILE.png] [--budget-ms 2]"
        + " [--extra DIR] [--trace] [--animation-at MS]"
        + "\n       LoadingScreen [--assets DIR] --bake FILE.bake [--gpu bc|astc]"
    static let flagsWithValues: Set = ["--assets", "--frames", "--screenshot", "--extra", "--budget-ms", "--bake", "--baked", "--gpu", "--animation-at"]

    init(_ arguments: ArraySlice<String>) {
        var arguments = arguments
        var assets: String?
        while let flag = arguments.popFirst() {
            if flag == "--help" || flag == "-h" {
                print(Self.usage)
                exit(0)
            }
            if flag == "--trace" {
                trace = true
                continue
            }
            if flag == "--decode-on-cpu" {
                decodesOnCPU = true
                continue
            }
            guard Self.flagsWithValues.contains(flag) else { Self.fail("unknown option \(flag)\n\(Self.usage)", status: 64) }
            guard let value = arguments.popFirst() else { Self.fail("\(flag) needs a value\n\(Self.usage)", status: 64) }
            switch flag {
            case "--bake": bakeTo = value
            case "--baked": baked = value
            case "--gpu":
                guard let target = GPUTextureBake.Target(rawValue: value), target != .rgba8 else {
                    Self.fail("--gpu takes bc (BC7) or astc (ASTC 4x4), not \(value)", status: 64)
                }
                gpu = target
            case "--assets": assets = value
            case "--frames":
                guard let count = Int(value), count > 0 else { Self.fail("--frames needs a positive number, not \(value)", status: 64) }
                frames = count
            case "--screenshot": screenshot = value
            case "--animation-at":
                guard let milliseconds = Int(value), milliseconds >= 0 else {
                    Self.fail("--animation-at needs a number of milliseconds, not \(value)", status: 64)
                }
                animationAt = .milliseconds(milliseconds)
            case "--extra": extra = value
            case "--budget-ms":
                guard let milliseconds = Double(value), milliseconds > 0 else {
                    Self.fail("--budget-ms needs a positive number, not \(value)", status: 64)
                }
                frameBudget = .microseconds(Int(milliseconds * 1000))
            default: Self.fail("unknown option \(flag)\n\(Self.usage)", status: 64)
            }
        }
        self.assets = assets ?? Self.defaultAssets()
        if !Self.isFolder(self.assets) {
            Self.fail("no such folder: \(self.assets)\(assets == nil ? " (give the level's folder with --assets DIR)" : "")", status: 66)
        }
        if let extra, !Self.isFolder(extra) { Self.fail("no such folder: \(extra) (--extra)", status: 66) }
        if let baked, !FileManager.default.fileExists(atPath: baked) {
            Self.fail("no such file: \(baked) (--baked; make it with --bake \(baked))", status: 66)
        }
        if baked != nil && bakeTo != nil { Self.fail("--bake writes a pack and --baked reads one: give one of them", status: 64) }
        if gpu != nil && bakeTo == nil { Self.fail("--gpu says how --bake bakes textures: give it with --bake FILE", status: 64) }
        if decodesOnCPU && baked == nil { Self.fail("--decode-on-cpu is for a pack baked with --gpu: give it with --baked FILE", status: 64) }
    }

    /// `sample-assets` here, else the repository's, four folders up from this file.
    private static func defaultAssets() -> String {
        if isFolder("sample-assets") { return "sample-assets" }
        var repository = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { repository.deleteLastPathComponent() }
        return repository.appendingPathComponent("sample-assets").path
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Prints `message` on stderr and exits with `status`: a mistake is a message and an exit
    /// code, never a trap.
    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("LoadingScreen: \(message)\n".utf8))
        exit(status)
    }
}
