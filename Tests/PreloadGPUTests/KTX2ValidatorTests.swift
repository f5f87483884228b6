import Foundation
import Preload
import PreloadGPU
import PreloadTestSupport
import Testing

/// Khronos' own validator (`ktx validate`, KTX-Software 4.3 or later) checks every file the
/// writer makes: every format, both colour spaces, both alpha modes, a full mipmap chain,
/// stored as they are and with Zstandard. Debian does not package KTX-Software: the test runs
/// where `ktx` is on the PATH or `KTX_TOOL` names it, and is skipped elsewhere.
@Suite(.enabled(if: KhronosKTXTool.path != nil, "needs Khronos' ktx tool (KTX-Software; set KTX_TOOL or put ktx on the PATH)"))
struct KTX2ValidatorTests {
    @Test(arguments: KTX2Supercompression.allCases)
    func khronosValidatorAcceptsEveryFormat(_ supercompression: KTX2Supercompression) throws {
        let tool = try #require(KhronosKTXTool.path)
        let folder = try TemporaryDirectory("preload-ktx2")
        defer { folder.remove() }
        for format in PixelFormat.allCases {
            for colorSpace in [ColorSpace.sRGB, .linear] {
                for alphaMode in [AlphaMode.straight, .premultiplied] {
                    let texture = KTX2Fixtures.texture(
                        format, colorSpace: colorSpace, alphaMode: alphaMode, mipLevelCount: Texture.fullMipLevelCount(width: 13, height: 7))
                    let path = try folder.write(
                        "\(format)-\(colorSpace)-\(alphaMode)-\(supercompression).ktx2",
                        KTX2File(texture: texture, supercompression: supercompression).encoded(zstdLevel: 3))
                    let (status, output) = try Self.validate(path, with: tool)
                    #expect(status == 0, "ktx validate \(path): \(output)")
                }
            }
        }
    }

    /// `ktx validate --warnings-as-errors` on `path`: its exit status and what it printed.
    static func validate(_ path: String, with tool: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["validate", "--warnings-as-errors", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// Where Khronos' `ktx` tool is: `KTX_TOOL`, or `ktx` on the PATH; `nil` when neither.
enum KhronosKTXTool {
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates =
            [environment["KTX_TOOL"]].compactMap { $0 }
            + (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/ktx" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
