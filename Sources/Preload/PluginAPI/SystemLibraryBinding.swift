/// A plugin's functions from one C library opened at run time: the one template every such
/// library follows (libwebp's decoder, libsndfile, libzstd, libxml2, libcurl ...), so that a
/// binding is its library's ``SystemLibraryLocation`` and its list of symbols.
///
/// The library is opened, and every symbol resolved, once for the process: on first use of
/// ``shared`` (declare it `static let shared = opened()`). Without the library, or with one too
/// old to have a symbol, ``get()`` throws the ``MissingSystemLibrary`` naming the library and the
/// package to install, and only the assets that need it fail.
///
/// ```swift
/// import Preload
///
/// struct LibZ: SystemLibraryBinding {
///     typealias Version = @convention(c) () -> UnsafePointer<CChar>?
///     static let location = SystemLibraryLocation(
///         "zlib", soname: "libz.so.1", debian: "zlib1g", dylib: "libz.1.dylib", homebrew: "zlib")
///     static let shared = opened()
///     let version: Version
///     init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
///         version = try library.function("zlibVersion")
///     }
/// }
/// if let zlib = try? LibZ.get(), let version = zlib.version() { print(String(cString: version)) }
/// ```
public protocol SystemLibraryBinding: Sendable {
    /// The library's name, the files to try and the package that provides it.
    static var location: SystemLibraryLocation { get }
    /// The binding for this process, or why its library is missing: declare it
    /// `static let shared = opened()`, so that the library opens once, on first use.
    static var shared: Result<Self, MissingSystemLibrary> { get }
    /// Resolves the binding's functions in `library` (each with ``SystemLibrary/function(_:)``)
    /// and does any set-up the library asks for once.
    /// - Throws: ``MissingSystemLibrary`` when a symbol is missing.
    init(resolving library: SystemLibrary) throws(MissingSystemLibrary)
}

extension SystemLibraryBinding {
    /// Opens the first of `fileNames` found (the location's by default; a test names a file that
    /// is not there) and resolves the binding's functions in it.
    public static func opened(fileNames: [String] = location.fileNames) -> Result<Self, MissingSystemLibrary> {
        Result { () throws(MissingSystemLibrary) in
            try Self(resolving: SystemLibrary.open(location.name, fileNames: fileNames, package: location.package))
        }
    }

    /// The binding for this process.
    /// - Throws: ``MissingSystemLibrary`` naming the library and the package to install.
    public static func get() throws(MissingSystemLibrary) -> Self { try shared.get() }

    /// Whether this machine has the library (opening it, on the first call, when it does).
    public static var isAvailable: Bool { (try? shared.get()) != nil }
}
