import Dispatch
import Foundation
import Testing

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

    /// The executable `name`, built next to the test bundle.
    static func binary(_ name: String) -> URL {
        let directory = Bundle.main.bundleURL
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("\(name) binary not found next to \(directory.path)")
    }

    /// Runs `preload` with `arguments` in `directory`. The waiting happens on a thread of its
    /// own: async tests must not hold the cooperative threads other tests' tasks need.
    static func preload(_ arguments: [String], in directory: String) async throws -> Run {
        try await run("preload", arguments, in: directory)
    }

    /// Runs the executable `name` (built by this package) with `arguments` in `directory`.
    static func run(_ name: String, _ arguments: [String], in directory: String) async throws -> Run {
        try await run(binary(name), arguments, in: directory)
    }

    /// Runs `executable` with `arguments` in `directory`, in this process's environment with
    /// `environment`'s variables set over it.
    static func run(_ executable: URL, _ arguments: [String], in directory: String, environment: [String: String] = [:]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {  // not a dispatch thread: those run the tests' loads
                continuation.resume(with: Result { try runBlocking(executable, arguments, in: directory, environment: environment) })
            }
        }
    }

    /// Runs `preload` with `arguments` in `directory` where file permissions bind it: as root
    /// (as tests often run), under `setpriv` without the capabilities that let root read a
    /// folder whose mode forbids it (`CAP_DAC_OVERRIDE`, `CAP_DAC_READ_SEARCH`), so that a
    /// `chmod 000` folder is unreadable to the command as it is to a user.
    static func preloadBoundByPermissions(_ arguments: [String], in directory: String) async throws -> Run {
        guard getuid() == 0 else { return try await preload(arguments, in: directory) }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "running as root, the test needs setpriv to drop root's read override")
        let capabilities = "-dac_override,-dac_read_search"
        let prefix = ["--inh-caps=" + capabilities, "--bounding-set=" + capabilities, binary("preload").path]
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result { try runBlocking(URL(fileURLWithPath: setpriv), prefix + arguments, in: directory) })
            }
        }
    }

    /// Runs `preload` with `arguments` in `directory` until its output contains each of
    /// `waits` in turn (up to 30 s each), running `then` after the first; then interrupts it
    /// (Ctrl-C) and returns everything it printed on stdout. Its stderr (a failure printed at
    /// start, say) is shown only when a wait was not met: a passing run prints nothing.
    static func preloadUntil(
        _ arguments: [String], in directory: String, waits: [String], then action: @escaping @Sendable () throws -> Void
    ) async throws -> String {
        let output = URL(fileURLWithPath: directory).appendingPathComponent(".preload-output-\(UUID().uuidString)")
        let errors = URL(fileURLWithPath: directory).appendingPathComponent(".preload-errors-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let process = Process()
        process.executableURL = binary("preload")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        var met = true
        defer {
            process.interrupt()
            process.waitUntilExit()
            if !met, let text = try? Data(contentsOf: errors) { FileHandle.standardError.write(text) }
        }
        func printed() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        for (index, text) in waits.enumerated() {
            // Generous: a sanitized build beside the whole suite is slow; it ends when the text comes.
            let deadline = ContinuousClock.now + .seconds(300)
            while !printed().contains(text) && process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            met = met && printed().contains(text)
            if index == 0 { try action() }
        }
        return printed()
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Run
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
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
