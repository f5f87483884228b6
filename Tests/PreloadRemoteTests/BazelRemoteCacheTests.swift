import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// The Bazel remote-cache client against nginx with WebDAV on loopback (Debian's nginx has
/// `ngx_http_dav_module`), each test with its own server and folder: `/cache/` takes PUTs,
/// `/readonly/` refuses them (403), `/private/` wants Basic credentials (`builder:s3cret`).
@Suite(.enabled(if: NginxServer.isInstalled, "nginx is not installed (.ci/system-packages install remote)"))
struct BazelRemoteCacheTests {
    static let user = "builder"
    static let password = "s3cret"

    /// nginx serving `folder` with the three locations above.
    static func server(_ folder: TemporaryDirectory) async throws -> NginxServer {
        let passwords = try folder.write("htpasswd", Array("\(user):{PLAIN}\(password)\n".utf8))
        let dav = "dav_methods PUT; create_full_put_path on; client_max_body_size 0;"
        let directives = """
            location /cache/ { \(dav) }
            location /readonly/ { \(dav) limit_except GET HEAD { deny all; } }
            location /private/ { \(dav) auth_basic "cache"; auth_basic_user_file "\(passwords)"; }
            """
        let root = folder.path
        return try await offThePool { try NginxServer.start(root: root, serverDirectives: directives) }
    }

    /// Runs `body` with a fresh folder and its server, then stops the server and removes the folder.
    static func withServer(_ body: (TemporaryDirectory, NginxServer) async throws -> Void) async throws {
        let folder = try TemporaryDirectory("preload-bazel-cache")
        defer { folder.remove() }
        let nginx = try await server(folder)
        defer { nginx.stop() }
        try await body(folder, nginx)
    }

    /// Options that read no netrc and no environment but what the test gives.
    static func options(netrc: NetrcSource = .none, environment: [String: String] = [:]) -> BazelRemoteCache.Options {
        BazelRemoteCache.Options(netrc: netrc, environment: environment)
    }

    static func digest(_ bytes: [UInt8]) throws -> String { try SHA256.hash(data: bytes).hexString }

    @Test func entriesGoUpComeBackAndAreFoundWithoutABody() async throws {
        try await Self.withServer { folder, nginx in
            let cache = try BazelRemoteCache(url: nginx.baseURL.absoluteString + "/cache/", options: Self.options())
            #expect(cache.displayURL == nginx.baseURL.absoluteString + "/cache")
            let blob = RemoteFixture.bytes(3_000_000, seed: 31)  // several of libcurl's upload reads
            let blobKey = try Self.digest(blob)
            let record = Array("an action's record".utf8)
            let recordKey = try Self.digest(Array("the key of a step".utf8))

            #expect(try await cache.read(.cas, blobKey) == nil)
            #expect(try await cache.contains(.cas, blobKey) == false)
            try await cache.write(.cas, blobKey, blob)
            try await cache.write(.ac, recordKey, record)
            // On the server's disk, where the protocol puts them.
            #expect(FileManager.default.contents(atPath: "\(folder.path)/cache/cas/\(blobKey)").map(Array.init) == blob)
            #expect(FileManager.default.contents(atPath: "\(folder.path)/cache/ac/\(recordKey)").map(Array.init) == record)
            #expect(try await cache.read(.cas, blobKey) == blob)
            #expect(try await cache.readVerified(blobKey) == blob)
            #expect(try await cache.read(.ac, recordKey) == record)
            #expect(try await cache.contains(.cas, blobKey))
            #expect(try await cache.contains(.ac, recordKey))
            #expect(try await cache.contains(.ac, blobKey) == false)  // the areas are apart

            // Replacing an entry (204 from nginx), and an empty one.
            try await cache.write(.ac, recordKey, [])
            #expect(try await cache.read(.ac, recordKey) == [])
            #expect(try await cache.contains(.ac, recordKey))
        }
    }

    @Test func aCorruptContentAddressedEntryIsRefusedByItsDigest() async throws {
        try await Self.withServer { folder, nginx in
            let cache = try BazelRemoteCache(url: nginx.baseURL.absoluteString + "/cache", options: Self.options())
            var bytes = RemoteFixture.bytes(10_000, seed: 32)
            let key = try Self.digest(bytes)
            bytes[5_000] ^= 1
            try await cache.write(.cas, key, bytes)
            #expect(try await cache.read(.cas, key) == bytes)  // served as it is
            let error = await #expect(throws: BazelCacheError.self) { try await cache.readVerified(key) }
            #expect(error == .digestMismatch(url: cache.displayURL(.cas, key), actual: try Self.digest(bytes)))
            #expect(try await cache.readVerified(try Self.digest([1, 2, 3])) == nil)
        }
    }

    @Test func aServerRefusingWritesFailsThemByStatus() async throws {
        try await Self.withServer { folder, nginx in
            let cache = try BazelRemoteCache(url: nginx.baseURL.absoluteString + "/readonly", options: Self.options())
            let key = try Self.digest([7])
            let error = await #expect(throws: BazelCacheError.self) { try await cache.write(.cas, key, [7]) }
            #expect(error == .refused(url: cache.displayURL(.cas, key), status: 403))
            #expect(error?.description.contains("/readonly/cas/\(key)") == true)
            #expect(!FileManager.default.fileExists(atPath: "\(folder.path)/readonly/cas/\(key)"))
            #expect(try await cache.read(.cas, key) == nil)  // reads still go
            _ = try folder.write("readonly/cas/\(key)", [7])
            #expect(try await cache.readVerified(key) == [7])
            #expect(try await cache.contains(.cas, key))
        }
    }

    @Test func aStoppedServerIsUnreachable() async throws {
        try await Self.withServer { _, nginx in
            let cache = try BazelRemoteCache(url: nginx.baseURL.absoluteString + "/cache", options: Self.options())
            let key = try Self.digest([1])
            try await cache.write(.cas, key, [1])
            nginx.stop()
            for attempt in 0..<3 {
                let error = await #expect(throws: BazelCacheError.self) {
                    switch attempt {
                    case 0: _ = try await cache.read(.cas, key)
                    case 1: try await cache.write(.cas, key, [1])
                    default: _ = try await cache.contains(.cas, key)
                    }
                }
                guard case .unreachable(let url, let cause) = error else {
                    Issue.record("not unreachable: \(String(describing: error))")
                    continue
                }
                #expect(url == cache.displayURL(.cas, key) && !cause.isEmpty)
            }
        }
    }

    @Test func credentialsComeFromTheURLNetrcOrAHeaderAndAreNeverShown() async throws {
        try await Self.withServer { folder, nginx in
            let port = nginx.port
            let key = try Self.digest([9, 9])
            let plain = "http://127.0.0.1:\(port)/private"

            // None: 401.
            let anonymous = try BazelRemoteCache(url: plain, options: Self.options())
            let refused = await #expect(throws: BazelCacheError.self) { try await anonymous.write(.cas, key, [9, 9]) }
            #expect(refused == .unauthorized(url: "\(plain)/cas/\(key)", status: 401))

            // A wrong password in the URL: 401, and neither it nor the user is shown.
            let wrong = try BazelRemoteCache(url: "http://\(Self.user):hunter2@127.0.0.1:\(port)/private/", options: Self.options())
            #expect(wrong.displayURL == plain)
            let denied = await #expect(throws: BazelCacheError.self) { _ = try await wrong.read(.cas, key) }
            #expect(denied == .unauthorized(url: "\(plain)/cas/\(key)", status: 401))
            #expect(denied.map { !"\($0)".contains("hunter2") && !"\($0)".contains(Self.user) } == true)

            // The right one, in the URL.
            let inURL = try BazelRemoteCache(url: "http://\(Self.user):\(Self.password)@127.0.0.1:\(port)/private", options: Self.options())
            try await inURL.write(.cas, key, [9, 9])
            #expect(try await inURL.readVerified(key) == [9, 9])

            // From a netrc file, for the URL's host.
            let netrc = try folder.write("netrc", Array("machine 127.0.0.1\n  login \(Self.user)\n  password \(Self.password)\n".utf8))
            let fromNetrc = try BazelRemoteCache(url: plain, options: Self.options(netrc: .file(netrc)))
            #expect(try await fromNetrc.contains(.cas, key))
            let elsewhere = try folder.write("netrc-elsewhere", Array("machine cache.example\nlogin \(Self.user)\npassword \(Self.password)\n".utf8))
            let unmatched = try BazelRemoteCache(url: plain, options: Self.options(netrc: .file(elsewhere)))
            await #expect(throws: BazelCacheError.unauthorized(url: "\(plain)/cas/\(key)", status: 401)) {
                _ = try await unmatched.contains(.cas, key)
            }

            // From the header variable.
            let token = Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
            let environment = ["PRELOAD_BAKE_CACHE_HEADER": "Authorization: Basic \(token)"]
            let fromHeader = try BazelRemoteCache(url: plain, options: Self.options(environment: environment))
            #expect(try await fromHeader.read(.cas, key) == [9, 9])
            let badHeader = #expect(throws: BazelCacheError.self) {
                try BazelRemoteCache(url: plain, options: Self.options(environment: ["PRELOAD_BAKE_CACHE_HEADER": "Bearer \(token)"]))
            }
            #expect(badHeader == .badHeader(variable: "PRELOAD_BAKE_CACHE_HEADER"))
            #expect(badHeader.map { !"\($0)".contains(token) } == true)
        }
    }

    @Test func badURLsAndKeysAreRefusedWithoutShowingCredentials() throws {
        let cache = try BazelRemoteCache(url: "https://ci:pa%40ss@cache.example:9090/studio//", options: Self.options())
        #expect(cache.displayURL == "https://cache.example:9090/studio")
        #expect(cache.displayURL(.ac, "ab") == "https://cache.example:9090/studio/ac/ab")
        for (url, shown) in [
            ("ftp://ci:secret@cache.example/x", "ftp://cache.example/x"), ("https://ci:secret@cache.example/x?y=1", "https://cache.example/x?y=1"),
            ("https://ci:secret@", "https://"),
        ] {
            let error = #expect(throws: BazelCacheError.self) { try BazelRemoteCache(url: url, options: Self.options()) }
            guard case .badURL(let named, _) = error else {
                Issue.record("\(url): \(String(describing: error))")
                continue
            }
            #expect(named == shown && !"\(error!)".contains("secret"))
        }
        let unparsed = #expect(throws: BazelCacheError.self) { try BazelRemoteCache(url: "ci:secret@cache.example", options: Self.options()) }
        #expect(unparsed.map { !"\($0)".contains("secret") } == true)
    }

    @Test func aKeyThatIsNotASHA256IsRefusedBeforeAnyRequest() async throws {
        let cache = try BazelRemoteCache(url: "http://127.0.0.1:9/cache", options: Self.options())  // nothing is sent
        for key in ["", "../../etc/passwd", String(repeating: "A", count: 64), String(repeating: "a", count: 63)] {
            await #expect(throws: BazelCacheError.badKey(key)) { _ = try await cache.read(.ac, key) }
        }
    }

    /// A socket on 127.0.0.1 that listens and never accepts: the kernel completes connections,
    /// and no byte ever comes back. Closed by `body`'s end.
    static func withSilentListener(_ body: (_ port: Int, _ socket: Int32) async throws -> Void) async throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        try #require(listening)
        try await body(Int(UInt16(bigEndian: address.sin_port)), socket)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        try await Self.withSilentListener { port, _ in
            var options = Self.options()
            options.stallTimeout = .seconds(1)
            let cache = try BazelRemoteCache(url: "http://127.0.0.1:\(port)/cache", options: options)
            let key = try Self.digest([5])
            let error = await #expect(throws: BazelCacheError.self) { _ = try await cache.read(.ac, key) }
            guard case .timedOut(let url, _) = error else {
                Issue.record("not timed out: \(String(describing: error))")
                return
            }
            #expect(url == cache.displayURL(.ac, key))
        }
    }

    @Test func aCancelledTaskEndsItsRequest() async throws {
        try await Self.withSilentListener { port, socket in
            var options = Self.options()
            options.stallTimeout = .seconds(300)  // only the cancellation ends it
            let cache = try BazelRemoteCache(url: "http://127.0.0.1:\(port)/cache", options: options)
            let key = try Self.digest([6])
            let task = Task { () async throws(BazelCacheError) -> [UInt8]? in try await cache.read(.ac, key) }
            // Cancelled once its connection is made (the listener has one pending), so midway.
            var pending = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            #expect(poll(&pending, 1, 300_000) == 1)
            task.cancel()
            await #expect(throws: BazelCacheError.cancelled(url: cache.displayURL(.ac, key))) { try await task.value }
        }
    }
}
