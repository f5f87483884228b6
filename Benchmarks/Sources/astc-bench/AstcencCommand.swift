import ArgumentParser
import BenchSupport
import Foundation
import PreloadGPU

/// Debian's `astcenc` command (4.2.0, `.ci/system-packages install gpu`), run once a file:
/// `astcenc -cl IN.png OUT.astc 4x4 -medium -j THREADS`.
struct AstcencCommand {
    /// What one run gave.
    struct Run {
        /// The blocks it wrote.
        var blocks: [UInt8]
        /// Its own "Coding time": compression alone.
        var codingSeconds: Double
        /// The whole process, start to exit.
        var wallSeconds: Double
    }

    let threads: Int
    private let output = FileManager.default.temporaryDirectory.appendingPathComponent("astc-bench-\(getpid()).astc").path

    init(threads: Int) throws {
        self.threads = threads
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/astcenc") else {
            throw ValidationError("no /usr/bin/astcenc: .ci/system-packages install gpu")
        }
    }

    /// Encodes the PNG at `path`.
    func encode(_ path: String) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/astcenc")
        process.arguments = ["-cl", path, output, "4x4", "-medium", "-j", "\(threads)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        let start = ContinuousClock.now
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let wall = (ContinuousClock.now - start).seconds
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.contains("Coding time:") }),
            let coding = Double(line.split(separator: " ").dropLast().last ?? "")
        else { throw ValidationError("astcenc failed on \(path): \(text)") }
        let file = try ASTCFile(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        return Run(blocks: file.blocks, codingSeconds: coding, wallSeconds: wall)
    }
}
