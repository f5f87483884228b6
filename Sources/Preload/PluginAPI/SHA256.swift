/// SHA-256 by OpenSSL's libcrypto, opened at run time (`libcrypto.so.3`, Debian's `libssl3`:
/// every machine with Swift has it, since Swift's Foundation and libcurl use it), so the package
/// builds no cryptography of its own and links nothing for it. The hashing is libcrypto's
/// assembly (SHA-NI or AVX2 where the CPU has them).
///
/// A value, as a hash state is: a copy goes on from where the original was (a kept partial
/// download's state continues with the bytes that follow). Without libcrypto ``finalize()``
/// throws ``MissingSystemLibrary`` naming the package; updates before it do nothing.
///
/// Public, as core's ``ZstdLibrary`` is, so that every module hashes through this one: remote
/// files' checks, the bake cache's keys and its check of what it reads, a plugin's own.
///
/// ```swift
/// import Preload
///
/// let digest = try SHA256.hash(data: Array("abc".utf8))
/// print(digest.hexString)   // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
/// ```
public struct SHA256: Sendable {
    /// OpenSSL's `SHA256_CTX` (eight 32-bit words of state, two of length, 64 bytes of block,
    /// two counters: 112 bytes, 4-aligned), kept here so that the state copies with the value.
    private var context: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private let library: Result<LibCrypto, MissingSystemLibrary>

    /// A new hash of no bytes.
    public init() {
        self.init(library: LibCrypto.shared)
    }

    /// A new hash through `library` (a test gives a library that failed to open).
    init(library: Result<LibCrypto, MissingSystemLibrary>) {
        self.library = library
        guard case .success(let crypto) = library else { return }
        withUnsafeMutableBytes(of: &context) { _ = crypto.initialize($0.baseAddress!) }
    }

    /// Hashes `bytes` after those already hashed.
    public mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        guard case .success(let crypto) = library, !bytes.isEmpty else { return }
        withUnsafeMutableBytes(of: &context) { _ = crypto.update($0.baseAddress!, bytes.baseAddress!, bytes.count) }
    }

    /// The 32 bytes of the digest of every byte given to ``update(bufferPointer:)``.
    /// - Throws: ``MissingSystemLibrary`` when libcrypto cannot be opened.
    public func finalize() throws(MissingSystemLibrary) -> [UInt8] {
        let crypto = try library.get()
        var context = self.context  // finishing spoils the state; the value's own stays as it was
        var digest = [UInt8](repeating: 0, count: 32)
        withUnsafeMutableBytes(of: &context) { state in
            digest.withUnsafeMutableBufferPointer { _ = crypto.finish($0.baseAddress!, state.baseAddress!) }
        }
        return digest
    }

    /// Opens libcrypto now, for a command that hashes later.
    /// - Throws: ``MissingSystemLibrary`` when libcrypto cannot be opened.
    public static func requireLibrary() throws(MissingSystemLibrary) {
        _ = try LibCrypto.shared.get()
    }

    /// The digest of `bytes`.
    /// - Throws: ``MissingSystemLibrary`` when libcrypto cannot be opened.
    public static func hash(bytes: UnsafeRawBufferPointer) throws(MissingSystemLibrary) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bufferPointer: bytes)
        return try hasher.finalize()
    }

    /// The digest of `bytes` (an array, `Data`, any contiguous bytes).
    /// - Throws: ``MissingSystemLibrary`` when libcrypto cannot be opened.
    public static func hash<Bytes: Sequence<UInt8>>(data bytes: Bytes) throws(MissingSystemLibrary) -> [UInt8] {
        var hasher = SHA256()
        let done: Void? = bytes.withContiguousStorageIfAvailable { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        return try hasher.finalize()
    }
}

/// libcrypto's three SHA-256 functions, resolved once (as bits: addresses in a library never
/// unloaded).
struct LibCrypto: SystemLibraryBinding {
    private typealias Initialize = @convention(c) (UnsafeMutableRawPointer) -> Int32
    private typealias Update = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, Int) -> Int32
    private typealias Finish = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer) -> Int32

    private let addresses: (initialize: UInt, update: UInt, finish: UInt)

    /// The process's libcrypto, opened on first use.
    static let shared = opened()
    static let location = SystemLibraryLocation("libcrypto", fileNames: ["libcrypto.so.3"], package: "libssl3")

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        func address(_ symbol: String) throws(MissingSystemLibrary) -> UInt {
            UInt(bitPattern: try library.function(symbol, as: UnsafeMutableRawPointer.self))
        }
        addresses = (try address("SHA256_Init"), try address("SHA256_Update"), try address("SHA256_Final"))
    }

    /// `SHA256_Init(context)`.
    func initialize(_ context: UnsafeMutableRawPointer) -> Int32 {
        unsafeBitCast(UnsafeRawPointer(bitPattern: addresses.initialize), to: Initialize.self)(context)
    }

    /// `SHA256_Update(context, bytes, count)`.
    func update(_ context: UnsafeMutableRawPointer, _ bytes: UnsafeRawPointer, _ count: Int) -> Int32 {
        unsafeBitCast(UnsafeRawPointer(bitPattern: addresses.update), to: Update.self)(context, bytes, count)
    }

    /// `SHA256_Final(digest, context)`: the 32 bytes into `digest`.
    func finish(_ digest: UnsafeMutablePointer<UInt8>, _ context: UnsafeMutableRawPointer) -> Int32 {
        unsafeBitCast(UnsafeRawPointer(bitPattern: addresses.finish), to: Finish.self)(digest, context)
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
