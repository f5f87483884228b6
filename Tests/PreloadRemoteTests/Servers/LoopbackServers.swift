// Test servers on 127.0.0.1 for the downloader's tests, started and stopped by the tests:
//
// - `FaultServer`: `fault_server.py` beside this file (Python 3 standard library): files from a
//   root folder with injected faults (dropped and stalled bodies, failing statuses, lying bytes,
//   changing ETags, redirects) and a log of every request (`stats()`). Its route table is at the
//   top of the script.
// - `NginxServer`: Debian's nginx (`/usr/sbin/nginx`) serving a root folder as a real server
//   does (ETag, Range, If-None-Match), with everything it writes inside a fresh temporary folder.
//
// Readiness is awaited on events, never with sleeps: the script's `PORT <n>` line (or its exit),
// and for nginx a probe request answered with a token only this instance knows (or its exit).
// The bound on that wait is generous (`startBound`, minutes): a loaded machine (a 2-core CI box
// running other builds) can take far longer than usual to start Python, and a short wall-clock
// bound made dozens of tests fail there.
//
// `SharedServers` starts one fault server and one nginx per test run, serving the system's
// temporary folder: each fixture's files are in a folder of their own below it, so tests share
// the servers and never see each other's files or requests (`RemoteFixture` filters the stats by
// its folder). Both stop in `stop()` (also called by `deinit`, and at exit for the shared ones):
// SIGTERM, then a bounded wait for the exit (SIGKILL after 5 s). Neither outlives a crashed test
// run for long: the script exits when its stdin reaches EOF (this process died) or after its
// lifetime, and nginx runs under coreutils' `timeout` with a lifetime too.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long a server may take to say it listens before its start fails: minutes, since only a
/// server that never starts reaches it (the wait ends at once on the PORT line or the exit).
let startBound: Duration = .seconds(300)

/// One fault server and one nginx for the whole test run, started when first asked for (on the
/// asking thread: call from `offThePool`), serving the system's temporary folder.
enum SharedServers {
    /// The folder both serve: a fixture's folder below it is `/<route>/<folder name>/...`.
    static let root = URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path

    private static let faultServer = Result { try FaultServer.start(root: root, lifetime: 4 * 3600) }
    private static let nginxServer = Result { try NginxServer.start(root: root, lifetime: 4 * 3600) }
    private static let stopsAtExit: Void = { atexit { SharedServers.stopAll() } }()

    /// The shared fault server (started now if it was not).
    static func fault() throws -> FaultServer {
        _ = stopsAtExit
        return try faultServer.get()
    }

    /// The shared nginx (started now if it was not).
    static func nginx() throws -> NginxServer {
        _ = stopsAtExit
        return try nginxServer.get()
    }

    private static func stopAll() {
        try? faultServer.get().stop()
        try? nginxServer.get().stop()
    }
}

/// Why a loopback server did not start or answer; `description` carries what it printed.
struct LoopbackServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - The fault server

/// `fault_server.py` run with `python3`: see the script's header for its routes.
final class FaultServer: @unchecked Sendable {  // mutable state is behind `lock`
    /// One request the server answered, as `/_stats` lists it.
    struct Request: Decodable, Sendable, Equatable {
        var method: String
        /// The request target: path and query.
        var path: String
        var range: String?
        var ifRange: String?
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var status: Int
        /// Body bytes sent.
        var bytes: Int
        var payload: Int  // of `bytes`, the file's (a multipart answer's part headers left out)
        /// Whether the connection was closed before the body it promised was all sent.
        var cut: Bool
    }

    /// The script, found beside this source file.
    static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fault_server.py").path

    let port: Int
    /// `http://127.0.0.1:<port>`.
    let baseURL: URL
    private let process: Process
    private let input: FileHandle
    private let output: FileHandle
    private let exited: DispatchSemaphore
    private let errorLog: URL
    private let lock = NSLock()
    private var stopped = false

    private init(port: Int, process: Process, input: FileHandle, output: FileHandle, exited: DispatchSemaphore, errorLog: URL) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.process = process
        self.input = input
        self.output = output
        self.exited = exited
        self.errorLog = errorLog
    }

    deinit { stop() }

    /// Starts the script serving `root` and returns once it listens (it printed its PORT line),
    /// or throws with what it wrote on stderr when it exits first (or says nothing for
    /// ``startBound``). It exits by itself after `lifetime` seconds.
    static func start(root: String, lifetime: Int = 900) throws -> FaultServer {
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("fault-server-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: errorLog.path, contents: nil) else {
            throw LoopbackServerError("cannot create \(errorLog.path)")
        }
        let errors = try FileHandle(forWritingTo: errorLog)
        let stdin = Pipe(), stdout = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptPath, "--root", root, "--lifetime", String(lifetime)]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try launch(process)
        } catch {
            try? errors.close()
            try? FileManager.default.removeItem(at: errorLog)
            throw LoopbackServerError("cannot run python3 \(scriptPath): \(error)")
        }
        try? errors.close()
        let server = readPortLine(stdout.fileHandleForReading, process: process, within: startBound).map {
            FaultServer(
                port: $0, process: process, input: stdin.fileHandleForWriting, output: stdout.fileHandleForReading,
                exited: exited, errorLog: errorLog)
        }
        if let server { return server }
        try? stdin.fileHandleForWriting.close()
        endProcess(process, exited: exited)
        let said = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: errorLog)
        let how = process.isRunning ? "within \(startBound)" : "before it exited (status \(process.terminationStatus))"
        throw LoopbackServerError("fault_server.py printed no PORT line \(how); stderr: \(said)")
    }

    /// The server's URL for `pathAndQuery` ("/plain/big.bin?x=1").
    func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")! }

    /// Every request answered since the start or the last `reset()`, oldest first.
    func stats() throws -> [Request] {
        let (status, body) = try LoopbackHTTP.get(port: port, path: "/_stats", seconds: 120)
        guard status == 200 else { throw LoopbackServerError("/_stats answered \(status)") }
        return try JSONDecoder().decode([Request].self, from: body)
    }

    /// Clears the stats and the per-URL counters (fault counts, changing ETags).
    func reset() throws {
        let (status, _) = try LoopbackHTTP.get(port: port, path: "/_reset", seconds: 120)
        guard status == 200 else { throw LoopbackServerError("/_reset answered \(status)") }
    }

    /// Closes its stdin, terminates it and waits for it to exit. Idempotent.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        try? input.close()
        Self.endProcess(process, exited: exited)
        try? output.close()
        try? FileManager.default.removeItem(at: errorLog)
    }

    /// Reads `handle` until a `PORT <n>` line, EOF, the process's exit or `bound`: n, or nil.
    private static func readPortLine(_ handle: FileHandle, process: Process, within bound: Duration) -> Int? {
        let deadline = ContinuousClock.now + bound
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        for _ in 0..<(Int(bound / .milliseconds(100)) + 100) {  // poll slices of at most 100 ms
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(100, max(1, left / .milliseconds(1)))))
            if polled < 0 && errno != EINTR { return nil }
            if polled <= 0 {
                if !process.isRunning { return nil }
                continue
            }
            let count = read(handle.fileDescriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }  // EOF: it exited without a PORT line
            line += chunk[0..<count]
            if let newline = line.firstIndex(of: 10) {
                let text = String(decoding: line[..<newline], as: UTF8.self)
                guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)), port > 0 else { return nil }
                return port
            }
            if line.count > 4096 { return nil }
        }
        return nil
    }

    /// Runs `process` with SIGTERM and SIGINT unblocked in the calling thread for the moment of
    /// the spawn: the child inherits the spawning thread's signal mask, and Dispatch's threads
    /// (the tests' threads) block those signals, which would leave the child deaf to `terminate()`.
    static func launch(_ process: Process) throws {
        var signals = sigset_t()
        var previous = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// SIGTERM, then up to 5 s for the exit; SIGKILL and up to 5 s more if it did not.
    fileprivate static func endProcess(_ process: Process, exited: DispatchSemaphore) {
        if process.isRunning { process.terminate() }
        if exited.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
    }
}

// MARK: - nginx

/// Debian's nginx serving `root` on 127.0.0.1, configured and logged inside a temporary folder
/// (`daemon off; master_process off;`), with `sendfile on; etag on; access_log off;`. It runs
/// under `timeout <lifetime>`, which passes `stop()`'s SIGTERM on.
final class NginxServer: @unchecked Sendable {  // mutable state is behind `lock`
    static let executable = "/usr/sbin/nginx"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int
    /// `http://127.0.0.1:<port>`.
    let baseURL: URL
    /// The temporary folder holding the config, pid file, error log and temp paths; removed by `stop()`.
    let prefix: URL
    private let process: Process
    private let exited: DispatchSemaphore
    private let lock = NSLock()
    private var stopped = false

    private init(port: Int, prefix: URL, process: Process, exited: DispatchSemaphore) {
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.prefix = prefix
        self.process = process
        self.exited = exited
    }

    deinit { stop() }

    /// Starts nginx serving `root` (its files at `/<path under root>`) and returns once it
    /// answers. A port is picked by binding and closing a socket; if nginx then finds it taken,
    /// another is tried (5 tries in all). `serverDirectives` go into the `server` block. nginx
    /// is ended after `lifetime` seconds if `stop()` has not ended it before.
    static func start(root: String, serverDirectives: String = "", lifetime: Int = 900) throws -> NginxServer {
        guard isInstalled else { throw LoopbackServerError("\(executable) is not installed") }
        let fileManager = FileManager.default
        let prefix = fileManager.temporaryDirectory.appendingPathComponent("preload-nginx-\(UUID().uuidString)")
        try fileManager.createDirectory(at: prefix.appendingPathComponent("temp"), withIntermediateDirectories: true)
        let token = UUID().uuidString
        let config = prefix.appendingPathComponent("nginx.conf")
        let errorLog = prefix.appendingPathComponent("error.log")
        let stderrLog = prefix.appendingPathComponent("stderr.log")
        var said = ""
        for _ in 0..<5 {
            let port = try LoopbackHTTP.freePort()
            let text = configuration(
                port: port, root: URL(fileURLWithPath: root).standardizedFileURL.path, prefix: prefix, token: token, extra: serverDirectives)
            try text.write(to: config, atomically: true, encoding: .utf8)
            for log in [errorLog, stderrLog] {
                try? fileManager.removeItem(at: log)
                _ = fileManager.createFile(atPath: log.path, contents: nil)
            }
            let errors = try FileHandle(forWritingTo: stderrLog)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["-k", "5", String(lifetime), executable, "-p", prefix.path + "/", "-c", config.path, "-e", errorLog.path]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            do {
                try FaultServer.launch(process)
            } catch {
                try? errors.close()
                try? fileManager.removeItem(at: prefix)
                throw LoopbackServerError("cannot run \(executable): \(error)")
            }
            try? errors.close()
            let ready = awaitReady(port: port, token: token, exited: exited)
            if ready == .ready { return NginxServer(port: port, prefix: prefix, process: process, exited: exited) }
            if ready == .timedOut { FaultServer.endProcess(process, exited: exited) }
            said = [errorLog, stderrLog].compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
            if ready == .exited && said.contains("Address already in use") { continue }
            break
        }
        try? fileManager.removeItem(at: prefix)
        throw LoopbackServerError("nginx did not start on 127.0.0.1: \(said)")
    }

    /// The server's URL for `pathAndQuery`.
    func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")! }

    /// Terminates nginx, waits for it to exit and removes its temporary folder. Idempotent.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        FaultServer.endProcess(process, exited: exited)
        try? FileManager.default.removeItem(at: prefix)
    }

    private enum Readiness { case ready, exited, timedOut }

    /// Probes `/__loopback_ready` until it answers this instance's token (for up to
    /// ``startBound``); between tries it waits up to 50 ms for nginx's exit, which ends the wait
    /// at once.
    private static func awaitReady(port: Int, token: String, exited: DispatchSemaphore) -> Readiness {
        let deadline = ContinuousClock.now + startBound
        for _ in 0..<Int(startBound / .milliseconds(50)) where ContinuousClock.now < deadline {
            if let (status, body) = try? LoopbackHTTP.get(port: port, path: "/__loopback_ready", seconds: 10),
                status == 200, body == Data(token.utf8)
            {
                return .ready
            }
            if exited.wait(timeout: .now() + .milliseconds(50)) == .success { return .exited }
        }
        return .timedOut
    }

    private static func configuration(port: Int, root: String, prefix: URL, token: String, extra: String) -> String {
        func quoted(_ path: String) -> String {
            "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let temp = prefix.appendingPathComponent("temp").path
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(quoted(prefix.appendingPathComponent("nginx.pid").path));
            error_log \(quoted(prefix.appendingPathComponent("error.log").path)) warn;
            events { worker_connections 128; }
            http {
                access_log off;
                sendfile on;
                etag on;
                types { }
                default_type application/octet-stream;
                client_body_temp_path \(quoted(temp + "/client_body"));
                proxy_temp_path \(quoted(temp + "/proxy"));
                fastcgi_temp_path \(quoted(temp + "/fastcgi"));
                uwsgi_temp_path \(quoted(temp + "/uwsgi"));
                scgi_temp_path \(quoted(temp + "/scgi"));
                server {
                    listen 127.0.0.1:\(port);
                    root \(quoted(root));
                    location = /__loopback_ready { return 200 "\(token)"; }
                    \(extra)
                }
            }

            """
    }
}

// MARK: - Sockets

/// Blocking HTTP/1.1 over a socket to 127.0.0.1, for the helpers above (not for the tests'
/// own requests, which go through the downloader or URLSession).
enum LoopbackHTTP {
    /// A port that was free a moment ago: bound to 127.0.0.1:0, read back, closed.
    static func freePort() throws -> Int {
        let socket = try openSocket()
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw LoopbackServerError("cannot bind 127.0.0.1:0 (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `GET path` with `Connection: close`, read to EOF (at most `seconds` in all, generous for a
    /// loaded machine): the status
    /// and the body.
    static func get(port: Int, path: String, seconds: Int = 60) throws -> (status: Int, body: Data) {
        let socket = try openSocket()
        defer { close(socket) }
        // Connected before the timeouts are set: on Linux SO_SNDTIMEO bounds connect() too, and a
        // loaded machine's server, its accept queue full, took more than a second to take the
        // connection (EINPROGRESS). A blocking connect waits on the kernel's own SYN retries.
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw LoopbackServerError("cannot connect to 127.0.0.1:\(port) (errno \(errno))") }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)  // per read or write; the loop keeps the total
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw LoopbackServerError("cannot send to 127.0.0.1:\(port) (errno \(errno))")
        }
        let deadline = ContinuousClock.now + .seconds(seconds)
        var response = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var ended = false
        for _ in 0..<100_000 where ContinuousClock.now < deadline {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count == 0 {
                ended = true
                break
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                throw LoopbackServerError("reading from 127.0.0.1:\(port) failed (errno \(errno))")
            }
            response.append(contentsOf: chunk[0..<count])
        }
        guard ended, let split = response.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw LoopbackServerError("no whole response from 127.0.0.1:\(port)\(path) within \(seconds) s")
        }
        let statusLine = String(decoding: response[..<split.lowerBound], as: UTF8.self).prefix { $0 != "\r" }
        guard let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw LoopbackServerError("bad status line from 127.0.0.1:\(port): \(statusLine)")
        }
        return (status, Data(response[split.upperBound...]))
    }

    private static func openSocket() throws -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw LoopbackServerError("cannot open a socket (errno \(errno))") }
        return socket
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)  // 127.0.0.1
        return address
    }
}
