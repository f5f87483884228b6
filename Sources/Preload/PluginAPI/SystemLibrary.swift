#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A C library a plugin opens at run time, as SDL_image and SDL_mixer open their optional
/// codecs: the package builds without the library's headers, a game that never meets the format
/// never needs the library, and a machine without it fails only the assets that need it, each
/// with a ``MissingSystemLibrary`` error naming the library and the package that provides it.
///
/// A plugin declares the few types of the library's API it uses in a small C target of its own
/// and its functions in a ``SystemLibraryBinding``, which opens the library once and resolves
/// each function with ``function(_:)``; or, for one function, opens it itself:
///
/// ```swift
/// import Preload
///
/// typealias Version = @convention(c) () -> Int32
/// let libwebp = Result { try SystemLibrary.open("libwebp", fileNames: ["libwebp.so.7"], package: "libwebp7") }
/// if let library = try? libwebp.get(), let version = try? library.function("WebPGetDecoderVersion", as: Version.self) {
///     print(String(version(), radix: 16))
/// }
/// ```
///
/// A library once opened stays loaded for the life of the process (nothing is unloaded under a
/// function pointer a plugin keeps).
public final class SystemLibrary: Sendable {
    /// The library's name as people know it ("libwebp").
    public let name: String
    /// The file that was opened ("libwebp.so.7").
    public let fileName: String
    /// The package that provides it ("libwebp7", Debian's name).
    public let package: String
    /// `dlopen`'s handle, as bits (a handle is an address the process never frees).
    private let handle: UInt

    private init(name: String, fileName: String, package: String, handle: UnsafeMutableRawPointer) {
        self.name = name
        self.fileName = fileName
        self.package = package
        self.handle = UInt(bitPattern: handle)
    }

    /// Opens the first of `fileNames` the dynamic linker finds (its search path: `LD_LIBRARY_PATH`,
    /// the system's library folders), resolving every symbol now.
    /// - Parameters:
    ///   - name: the library's name as people know it, for messages ("libwebp").
    ///   - fileNames: the files to try, in order: the versioned name of each ABI the plugin
    ///     declares ("libwebp.so.7"), never the unversioned development link alone.
    ///   - package: the package a person installs to get it, in the words of the system's package
    ///     manager (Debian's "libwebp7"; Homebrew's "webp" on macOS).
    /// - Throws: ``MissingSystemLibrary`` naming the library, the files tried and the package.
    public static func open(_ name: String, fileNames: [String], package: String) throws(MissingSystemLibrary) -> SystemLibrary {
        var causes: [String] = []
        for fileName in fileNames {
            if let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) {
                return SystemLibrary(name: name, fileName: fileName, package: package, handle: handle)
            }
            causes.append(dlerror().map { String(cString: $0) } ?? "\(fileName): not found")
        }
        throw MissingSystemLibrary(library: name, fileNames: fileNames, package: package, cause: causes.joined(separator: "; "))
    }

    /// Opens the first of `location`'s files the dynamic linker finds, resolving every symbol now.
    /// - Throws: ``MissingSystemLibrary`` naming the library, the files tried and the package.
    public static func open(_ location: SystemLibraryLocation) throws(MissingSystemLibrary) -> SystemLibrary {
        try open(location.name, fileNames: location.fileNames, package: location.package)
    }

    /// The function `symbol` of the library, as the `@convention(c)` function type the result is
    /// stored as (a ``SystemLibraryBinding``'s property: `update = try library.function("WebPIUpdate")`).
    /// - Throws: ``MissingSystemLibrary`` when the library has no such symbol.
    public func function<Function>(_ symbol: String) throws(MissingSystemLibrary) -> Function {
        try function(symbol, as: Function.self)
    }

    /// The function `symbol` of the library, as `type`, a `@convention(c)` function type whose
    /// parameters and result match the library's declaration.
    /// - Throws: ``MissingSystemLibrary`` when the library has no such symbol (a version older
    ///   than the one the plugin was written for).
    public func function<Function>(_ symbol: String, as type: Function.Type) throws(MissingSystemLibrary) -> Function {
        precondition(
            MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size,
            "SystemLibrary.function(_:as:) takes a @convention(c) function type, not \(Function.self)")
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: handle), symbol) else {
            throw MissingSystemLibrary(
                library: name, fileNames: [fileName], package: package,
                cause: "\(fileName) has no function \(symbol): the installed version is older than this plugin needs")
        }
        return unsafeBitCast(address, to: type)
    }
}

/// A library an asset's plugin needs at run time is not installed (or is too old): the asset
/// fails with category ``AssetError/Category/libraryMissing``; the batch's other assets load.
public struct MissingSystemLibrary: AssetFailure, Equatable {
    /// The library's name as people know it ("libwebp").
    public let library: String
    /// The files that were tried ("libwebp.so.7").
    public let fileNames: [String]
    /// The package that provides it ("libwebp7").
    public let package: String
    /// What the dynamic linker said.
    public let cause: String

    /// A missing `library`: `fileNames` were tried, `package` provides it, `cause` is the dynamic linker's word.
    public init(library: String, fileNames: [String], package: String, cause: String) {
        self.library = library
        self.fileNames = fileNames
        self.package = package
        self.cause = cause
    }

    public var category: AssetError.Category { .libraryMissing }

    public var description: String {
        "needs \(library) (\(fileNames.joined(separator: " or "))), which this machine lacks: "
            + "install the package \(package) (\(Self.installCommand) \(package)) [\(cause)]"
    }

    /// How a person installs a package here.
    #if canImport(Darwin)
        private static let installCommand = "brew install"
    #else
        private static let installCommand = "apt-get install"
    #endif
}
