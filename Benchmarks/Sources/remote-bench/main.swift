import ArgumentParser
import BenchSupport
import Dispatch
import Foundation
import Preload
import PreloadRemote
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `RemoteFetcher` costs against a plain download, all on loopback from an nginx of its own
/// (`/usr/sbin/nginx`, `sendfile on; etag on; access_log off;` but for `/logged/`, configured
/// and logged in a temporary folder, stopped at the end):
///
/// 1. **Throughput**: one file of random bytes (`--size-mb`), each round fetched by `curl -s -o`
///    (the whole process timed: the baseline), by a fetcher into a fresh cache with the size and
///    SHA-256 promised (checked as in a catalog sync), and by one with nothing promised; the
///    order rotates each round. Medians (min, max) in ms and MB/s, and the median of each
///    round's fetcher-over-curl throughput (target: at least 0.80); then the process's peak
///    resident memory (what the transport holds in memory shows there).
/// 2. **Resume**: the same file fetched six times into one cache, each session but the last
///    cancelled once its progress passes k/6 of the file; each fetch resumes the kept partial
///    download with `Range`. Network bytes over the file's size (target: at most 1.1x) as the
///    fetcher counted them, as the loopback interface did and as nginx sent them (its
///    `/logged/` requests), and the final file's SHA-256.
/// 3. **Parallelism**: `--many` files of `--many-size-kb` KB (promised) fetched with 1, 2, 4 and
///    8 downloads at once into a fresh cache, the counts interleaved; median wall times, and the
///    fastest (which chooses `maxConcurrentDownloads`'s default).
/// 4. **Revalidation**: those files fetched again into a cache that has them, without a promise
///    (one `If-None-Match` each, 304s: no body bytes) and with their SHA-256 promised (no
///    request at all); medians.
///
///     swift run -c release --package-path Benchmarks remote-bench --size-mb 100 --rounds 7 --many 64 --many-size-kb 1024
struct RemoteBench: ParsableCommand {
    @Option(help: "Size of the throughput and resume file, in MB.") var sizeMB = 100
    @Option(help: "Throughput rounds (each runs curl and both fetchers once).") var rounds = 7
    @Option(help: "Files for the parallelism and revalidation parts.") var many = 64
    @Option(help: "Size of each of those files, in KB.") var manySizeKB = 1024
    @Option(help: "Rounds of each download count, and of each revalidation.") var manyRounds = 3
    @Option(help: "Seconds after which nginx is ended even if the benchmark has not stopped it.") var nginxLifetime = 1800

    func validate() throws {
        guard sizeMB >= 1, rounds >= 1, many >= 1, manySizeKB >= 1, manyRounds >= 1 else {
            throw ValidationError("sizes, counts and rounds must be at least 1")
        }
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remote-bench-\(getpid())").path
        let root = folder + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = sizeMB * 1_000_000
        try writeRandomFile(root + "/big.bin", bytes: size)
        let names = (0..<many).map { String(format: "f%03d.bin", $0) }
        for name in names { try writeRandomFile(root + "/" + name, bytes: manySizeKB * 1024) }
        let hashes = try sha256(of: [root + "/big.bin"] + names.map { root + "/" + $0 })

        let nginx = try Nginx(root: root, prefix: folder + "/nginx", lifetime: nginxLifetime)
        defer { nginx.stop() }
        print("nginx on 127.0.0.1:\(nginx.port); \(ProcessInfo.processInfo.activeProcessorCount) cores")
        let big = RemoteFile(url: nginx.url("/big.bin"), expected: ExpectedContents(size: Int64(size), sha256: hashes[0]))
        let small = zip(names, hashes.dropFirst()).map {
            RemoteFile(url: nginx.url("/" + $0), expected: ExpectedContents(size: Int64(manySizeKB * 1024), sha256: $1))
        }

        try throughput(big, folder: folder)
        let logged = RemoteFile(url: nginx.url("/logged/big.bin"), expected: big.expected)
        try resume(logged, folder: folder, serverLog: nginx.loggedRequests)
        try parallelism(small, folder: folder)
        try revalidation(small, folder: folder)
    }

    // MARK: The parts

    func throughput(_ file: RemoteFile, folder: String) throws {
        let size = file.expected.size!
        let bare = RemoteFile(url: file.url)
        let sides = ["curl", "fetcher, promised", "fetcher, no promise"]
        var times: [String: [Double]] = [:]
        var ratios: [String: [Double]] = [:]
        for round in 0..<rounds {
            var roundTimes: [String: Double] = [:]
            for offset in 0..<sides.count {
                let side = sides[(round + offset) % sides.count]
                switch side {
                case "curl":
                    let output = folder + "/curl.out"
                    let (status, seconds) = timed { runTool("/usr/bin/curl", ["-s", "-o", output, file.url]).status }
                    let written = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? nil
                    try? FileManager.default.removeItem(atPath: output)
                    guard status == 0, written == size else { throw BenchError("curl: status \(status), \(written ?? -1) bytes") }
                    roundTimes[side] = seconds
                default:
                    let cacheFolder = folder + "/cache-throughput"
                    let fetcher = try RemoteFetcher(cache: RemoteCache(folder: cacheFolder))
                    let (results, seconds) = timed { fetcher.fetch([side == "fetcher, promised" ? file : bare], session: SourceSession()) }
                    let transfer = try results[0].get().transfer
                    try? FileManager.default.removeItem(atPath: cacheFolder)
                    guard transfer.networkBytes == size, transfer.cacheBytes == 0 else {
                        throw BenchError("\(side): \(transfer.networkBytes) bytes from the network, \(transfer.cacheBytes) from the cache")
                    }
                    roundTimes[side] = seconds
                }
            }
            for side in sides { times[side, default: []].append(roundTimes[side]!) }
            for side in sides.dropFirst() { ratios[side, default: []].append(roundTimes["curl"]! / roundTimes[side]!) }
        }
        print("throughput: \(megabytes(Int(size))) MB, \(rounds) rounds, median (min-max)")
        for side in sides {
            let values = times[side]!
            let rate = { (seconds: Double) in Double(size) / 1e6 / seconds }
            print(
                String(
                    format: "  %@ %8.1f ms (%.1f-%.1f)  %7.1f MB/s (%.1f-%.1f)", side.padding(toLength: 20, withPad: " ", startingAt: 0),
                    median(values) * 1e3, values.min()! * 1e3, values.max()! * 1e3, rate(median(values)), rate(values.max()!),
                    rate(values.min()!)))
        }
        for side in sides.dropFirst() {
            let values = ratios[side]!
            print(
                String(
                    format: "  %@ / curl throughput: %.2fx (%.2f-%.2f; target >= 0.80)", side, median(values), values.min()!,
                    values.max()!))
        }
        // The transport queues what the socket gives it for the delegate queue: a slow consumer shows here.
        print("  peak resident memory so far: \(peakResidentMB()) MB")
    }

    func resume(_ file: RemoteFile, folder: String, serverLog: String) throws {
        let size = file.expected.size!
        let cacheFolder = folder + "/cache-resume"
        defer { try? FileManager.default.removeItem(atPath: cacheFolder) }
        let fetcher = try RemoteFetcher(cache: RemoteCache(folder: cacheFolder))
        let wireBefore = loopbackBytes()
        var networkBytes: Int64 = 0
        let started = ContinuousClock.now
        print("resume: \(megabytes(Int(size))) MB, cut at k/6 for k = 1...5, then whole")
        for cut in 1...5 {
            let kept = partialBytes(cacheFolder)
            let cutter = Cutter(at: size * Int64(cut) / 6)
            let (results, seconds) = timed { fetcher.fetch([file], session: cutter.session) }
            guard case .failure = results[0] else { throw BenchError("cut \(cut): the fetch was not cancelled") }
            let now = partialBytes(cacheFolder)
            let received = cutter.received - kept  // the kept bytes are reported as received when the fetch adopts them
            guard now == kept + received else {
                throw BenchError("cut \(cut): the partial file holds \(now) bytes, not \(kept) kept + \(received) received")
            }
            networkBytes += received
            print(
                String(
                    format: "  cut %d: resumed from %.1f MB, %.1f MB from the network, cut at %.1f MB (%.0f ms)", cut, Double(kept) / 1e6,
                    Double(received) / 1e6, Double(now) / 1e6, seconds * 1e3))
        }
        let kept = partialBytes(cacheFolder)
        let (results, seconds) = timed { fetcher.fetch([file], session: SourceSession()) }
        let fetched = try results[0].get()
        networkBytes += fetched.transfer.networkBytes
        let wireAfter = loopbackBytes()
        let total = ContinuousClock.now - started
        let digest = try sha256(of: [fetched.path])[0]
        print(
            String(
                format: "  last: resumed from %.1f MB (cache bytes %.1f MB), %.1f MB from the network, %d attempt(s) (%.0f ms)", Double(kept) / 1e6,
                Double(fetched.transfer.cacheBytes) / 1e6, Double(fetched.transfer.networkBytes) / 1e6, fetched.transfer.attempts,
                seconds * 1e3))
        print(
            String(
                format: "  network bytes / size: %.3fx as the fetcher counted (target <= 1.1x); %@ on the loopback wire; %.0f ms in all",
                Double(networkBytes) / Double(size), wireRatio(wireBefore, wireAfter, size),
                total.seconds * 1e3))
        // nginx's count: what it handed the kernel for each request, socket buffers included.
        let requests = ((try? String(contentsOfFile: serverLog, encoding: .utf8)) ?? "").split(separator: "\n").map {
            $0.split(separator: " ")
        }
        let sent = requests.reduce(Int64(0)) { $0 + (Int64($1.last ?? "") ?? 0) }
        print(
            String(
                format: "  nginx sent %.3fx the size in %d requests (statuses %@)", Double(sent) / Double(size), requests.count,
                requests.map { String($0.first ?? "?") }.joined(separator: " ")))
        print("  final SHA-256 \(digest == file.expected.sha256 ? "matches" : "DIFFERS FROM") the source's (\(digest.prefix(16))...)")
        guard digest == file.expected.sha256 else { throw BenchError("the resumed file's SHA-256 differs") }
    }

    func parallelism(_ files: [RemoteFile], folder: String) throws {
        let counts = [1, 2, 4, 8]
        let bytes = files.reduce(Int64(0)) { $0 + $1.expected.size! }
        var times: [Int: [Double]] = [:]
        for round in 0..<manyRounds {
            for offset in 0..<counts.count {
                let count = counts[(round + offset) % counts.count]
                let cacheFolder = folder + "/cache-parallel"
                let fetcher = try RemoteFetcher(
                    cache: RemoteCache(folder: cacheFolder), configuration: RemoteFetcher.Configuration(maxConcurrentDownloads: count))
                let (results, seconds) = timed { fetcher.fetch(files, session: SourceSession()) }
                let network = try results.reduce(Int64(0)) { $0 + (try $1.get().transfer.networkBytes) }
                try? FileManager.default.removeItem(atPath: cacheFolder)
                guard network == bytes else { throw BenchError("\(count) at once: \(network) network bytes, not \(bytes)") }
                times[count, default: []].append(seconds)
            }
        }
        print("parallelism: \(files.count) files of \(manySizeKB) KB (promised), \(manyRounds) rounds, median (min-max)")
        for count in counts {
            let values = times[count]!
            print(
                String(
                    format: "  %d at once: %7.1f ms (%.1f-%.1f)  %7.1f MB/s", count, median(values) * 1e3, values.min()! * 1e3,
                    values.max()! * 1e3, Double(bytes) / 1e6 / median(values)))
        }
        let fastest = counts.min { median(times[$0]!) < median(times[$1]!) }!
        print("  fastest: \(fastest) at once")
    }

    func revalidation(_ files: [RemoteFile], folder: String) throws {
        let cacheFolder = folder + "/cache-revalidate"
        defer { try? FileManager.default.removeItem(atPath: cacheFolder) }
        let fetcher = try RemoteFetcher(cache: RemoteCache(folder: cacheFolder))
        let bare = files.map { RemoteFile(url: $0.url) }
        let (first, firstSeconds) = timed { fetcher.fetch(bare, session: SourceSession()) }
        let firstNetwork = try first.reduce(Int64(0)) { $0 + (try $1.get().transfer.networkBytes) }
        print(
            String(
                format: "revalidation: %d files, first fetch %.1f MB from the network in %.1f ms; again into the same cache, %d rounds:",
                files.count, Double(firstNetwork) / 1e6, firstSeconds * 1e3, manyRounds))
        for (label, batch) in [("no promise (If-None-Match)", bare), ("SHA-256 promised", files)] {
            var times: [Double] = []
            var network: Int64 = 0, cached: Int64 = 0, requests = 0
            for _ in 0..<manyRounds {
                let (results, seconds) = timed { fetcher.fetch(batch, session: SourceSession()) }
                let transfers = try results.map { try $0.get().transfer }
                times.append(seconds)
                network += transfers.reduce(0) { $0 + $1.networkBytes }
                cached += transfers.reduce(0) { $0 + $1.cacheBytes }
                requests += transfers.reduce(0) { $0 + $1.attempts }
            }
            print(
                String(
                    format: "  %@ %7.2f ms (%.2f-%.2f); per round %d requests, %lld network bytes, %.1f MB from the cache",
                    label.padding(toLength: 27, withPad: " ", startingAt: 0),
                    median(times) * 1e3, times.min()! * 1e3, times.max()! * 1e3, requests / manyRounds, network / Int64(manyRounds),
                    Double(cached) / Double(manyRounds) / 1e6))
        }
    }
}

// MARK: - nginx

/// nginx serving `root` on 127.0.0.1 at a free port, everything it writes inside `prefix`; run
/// under `timeout` so that it cannot outlive a benchmark that crashed by more than `lifetime` s.
final class Nginx {
    let port: Int
    /// Where requests under `/logged/` are logged: a line each, their status and body bytes sent.
    let loggedRequests: String
    private let process: Process
    private let exited: DispatchSemaphore
    private var stopped = false

    init(root: String, prefix: String, lifetime: Int) throws {
        try FileManager.default.createDirectory(atPath: prefix + "/temp", withIntermediateDirectories: true)
        loggedRequests = prefix + "/logged.log"
        let token = UUID().uuidString
        var said = ""
        for _ in 0..<5 {
            let port = try freeLoopbackPort()
            try Self.configuration(port: port, root: root, prefix: prefix, token: token)
                .write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = [
                "-k", "5", String(lifetime), "/usr/sbin/nginx", "-p", prefix + "/", "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log",
            ]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            try launchHearingSIGTERM(process)
            // Ready when it answers this instance's token; gone at once if the port was taken.
            for _ in 0..<100 {
                let probe = runTool("/usr/bin/curl", ["-s", "--max-time", "1", "http://127.0.0.1:\(port)/__ready"])
                if probe.status == 0 && probe.output == token {
                    self.port = port
                    self.process = process
                    self.exited = exited
                    return
                }
                if exited.wait(timeout: .now() + .milliseconds(50)) == .success { break }
            }
            Self.end(process, exited: exited)
            said = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
            guard said.contains("Address already in use") else { break }
        }
        throw BenchError("nginx did not start on 127.0.0.1: \(said)")
    }

    deinit { stop() }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// SIGTERM, and a bounded wait for the exit.
    func stop() {
        guard !stopped else { return }
        stopped = true
        Self.end(process, exited: exited)
    }

    /// SIGTERM, then up to 5 s for the exit; SIGKILL and up to 5 s more if it did not.
    private static func end(_ process: Process, exited: DispatchSemaphore) {
        if process.isRunning { process.terminate() }
        if exited.wait(timeout: .now() + 5) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
    }

    private static func configuration(port: Int, root: String, prefix: String, token: String) -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        error_log "\(prefix)/error.log";
        pid "\(prefix)/nginx.pid";
        events { worker_connections 128; }
        http {
            access_log off;
            sendfile on;
            etag on;
            types { }
            default_type application/octet-stream;
            client_body_temp_path "\(prefix)/temp/client_body";
            proxy_temp_path "\(prefix)/temp/proxy";
            fastcgi_temp_path "\(prefix)/temp/fastcgi";
            uwsgi_temp_path "\(prefix)/temp/uwsgi";
            scgi_temp_path "\(prefix)/temp/scgi";
            log_format sent '$status $body_bytes_sent';
            server {
                listen 127.0.0.1:\(port);
                root "\(root)";
                location = /__ready { return 200 "\(token)"; }
                # The same files, each request's status and body bytes sent logged: the resume part's.
                location /logged/ {
                    alias "\(root)/";
                    access_log "\(prefix)/logged.log" sent;
                }
            }
        }

        """
    }
}

/// Runs `process` with SIGTERM and SIGINT unblocked in this thread for the spawn: the child
/// inherits the thread's signal mask, and one that blocks them would leave nginx deaf to SIGTERM.
func launchHearingSIGTERM(_ process: Process) throws {
    var signals = sigset_t()
    var previous = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    try process.run()
}

/// A port that was free a moment ago: 127.0.0.1:0 bound, read back, closed.
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchError("cannot open a socket (errno \(errno))") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw BenchError("cannot bind 127.0.0.1:0 (errno \(errno))") }
    return Int(UInt16(bigEndian: address.sin_port))
}

// MARK: - Helpers

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A session that cancels itself once its progress reports `threshold` bytes received, and
/// counts what it reported until then (what it reports after is the bar being settled).
final class Cutter: Sendable {
    private struct State {
        var received: Int64 = 0
        var cancelled = false
    }

    private let state = Mutex(State())
    private let threshold: Int64
    private let holder = Mutex<SourceSession?>(nil)

    init(at threshold: Int64) {
        self.threshold = threshold
        holder.withLock { $0 = SourceSession { [weak self] _, received in self?.report(received) } }
    }

    var session: SourceSession { holder.withLock { $0! } }
    var received: Int64 { state.withLock { $0.received } }

    private func report(_ bytes: Int64) {
        let cancelNow = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.received += bytes
            state.cancelled = state.received >= threshold
            return state.cancelled
        }
        if cancelNow { session.cancel() }
    }
}

/// This process's peak resident memory, in MB (curl's, a child's, is not in it).
func peakResidentMB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss / 1024
}

/// Bytes on the loopback wire between two readings over `size`, as text.
func wireRatio(_ before: Int64?, _ after: Int64?, _ size: Int64) -> String {
    guard let before, let after else { return "?" }
    return String(format: "%.3fx", Double(after - before) / Double(size))
}

/// Runs `executable` with `arguments` and waits for its exit (on its termination handler, not
/// `waitUntilExit`, which polls a run loop and would add up to 50 ms to curl's time): its status
/// and its standard output. A tool still running after 10 minutes is killed.
func runTool(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    do {
        try process.run()
    } catch {
        return (-1, "")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    if exited.wait(timeout: .now() + 600) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        _ = exited.wait(timeout: .now() + 5)
        return (-1, "")
    }
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// `body`'s result and the seconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, (ContinuousClock.now - start).seconds)
}

/// `bytes` random bytes at `path` (SplitMix64 seeded by the system: incompressible, and
/// quicker than a system call per word), written 1 MiB at a time.
func writeRandomFile(_ path: String, bytes: Int) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
        throw BenchError("cannot write \(path)")
    }
    defer { try? handle.close() }
    var state = UInt64.random(in: .min ... .max)
    var chunk = [UInt64](repeating: 0, count: 1 << 17)
    var left = bytes
    while left > 0 {
        for index in chunk.indices {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            chunk[index] = mixed ^ (mixed >> 31)
        }
        let count = min(left, chunk.count * 8)
        try handle.write(contentsOf: chunk.withUnsafeBytes { Data($0.prefix(count)) })
        left -= count
    }
}

/// The SHA-256 of each file, by coreutils' `sha256sum` (not the fetcher's own hasher).
func sha256(of paths: [String]) throws -> [String] {
    let (status, output) = runTool("/usr/bin/sha256sum", paths)
    let digests = output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    guard status == 0, digests.count == paths.count else { throw BenchError("sha256sum failed (status \(status))") }
    return digests
}

/// Bytes in a cache's `partial/` folder: the downloads it keeps to resume.
func partialBytes(_ cacheFolder: String) -> Int64 {
    let folder = cacheFolder + "/partial"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.reduce(0) { total, name in
        total + (((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int64) ?? nil) ?? 0)
    }
}

/// Bytes the loopback interface has received since boot (every packet, headers included), if Linux says.
func loopbackBytes() -> Int64? {
    (try? String(contentsOfFile: "/sys/class/net/lo/statistics/rx_bytes", encoding: .utf8))
        .flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}

RemoteBench.main()
