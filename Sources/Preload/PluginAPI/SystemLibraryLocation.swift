/// Where a C library opened at run time is found and which package provides it: what
/// ``SystemLibrary/open(_:)`` tries and what ``MissingSystemLibrary`` tells a person to install.
public struct SystemLibraryLocation: Sendable, Equatable {
    /// The library's name as people know it ("libwebp").
    public let name: String
    /// The files to try, in order ("libwebp.so.7").
    public let fileNames: [String]
    /// The package a person installs to get it ("libwebp7").
    public let package: String

    /// A library found as one of `fileNames`, which `package` provides.
    public init(_ name: String, fileNames: [String], package: String) {
        self.name = name
        self.fileNames = fileNames
        self.package = package
    }

    /// A library by its versioned file name on each platform: on Linux `soname` (the versioned
    /// name of the ABI the plugin declares, never the unversioned development link), which
    /// Debian's package `debian` provides; on macOS `dylib`, searched where the dynamic linker
    /// looks and in Homebrew's two prefixes, which Homebrew's formula `homebrew` provides.
    public init(_ name: String, soname: String, debian: String, dylib: String, homebrew: String) {
        #if canImport(Darwin)
            self.init(name, fileNames: [dylib, "/opt/homebrew/lib/\(dylib)", "/usr/local/lib/\(dylib)"], package: homebrew)
        #else
            self.init(name, fileNames: [soname], package: debian)
        #endif
    }
}
