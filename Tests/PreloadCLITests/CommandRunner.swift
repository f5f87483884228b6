import Dispatch
import Foundation

/// Runs the real `preload` binary (built next to the test bundle) and captures what it prints.
enum CommandRunner {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    static let binary: URL = {
        let directory = Bundle.main.bundleURL
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("preload")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("preload binary not found next to \(directory.path)")
    }()

    /// Runs `preload` with `arguments` in `directory`. The waiting happens on a dispatch thread:
    /// async tests must not hold the cooperative threads other tests' tasks need.
    static func preload(_ arguments: [String], in directory: String) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments, in: directory) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], in directory: String) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
