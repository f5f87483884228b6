import Foundation
import Preload  // public API only: what a third-party plugin opening a codec at run time uses
import PreloadTestSupport
import Testing

/// `SystemLibrary`: a plugin's C library opened at run time, and the per-asset error a machine
/// without it gives.
@Suite struct SystemLibraryTests {
    typealias StringLength = @convention(c) (UnsafePointer<CChar>) -> Int

    @Test func opensTheFirstFileFoundAndResolvesFunctions() throws {
        let libc = try SystemLibrary.open("the C library", fileNames: ["libpreload-none.so.9", "libc.so.6"], package: "libc6")
        #expect(libc.fileName == "libc.so.6")
        let strlen = try libc.function("strlen", as: StringLength.self)
        #expect(strlen("preload") == 7)
    }

    @Test func aMissingLibraryNamesItsFilesAndPackage() {
        #expect {
            try SystemLibrary.open("libnothing", fileNames: ["libpreload-none.so.9", "libpreload-none.so.8"], package: "libnothing9")
        } throws: { error in
            let missing = error as! MissingSystemLibrary
            return missing.category == .libraryMissing && missing.fileNames == ["libpreload-none.so.9", "libpreload-none.so.8"]
                && missing.description.hasPrefix(
                    "needs libnothing (libpreload-none.so.9 or libpreload-none.so.8), which this machine lacks: "
                        + "install the package libnothing9 (apt-get install libnothing9) [libpreload-none.so.9: cannot open shared object file")
        }
    }

    @Test func aMissingFunctionSaysTheLibraryIsTooOld() throws {
        let libc = try SystemLibrary.open("the C library", fileNames: ["libc.so.6"], package: "libc6")
        #expect {
            try libc.function("preload_no_such_function", as: StringLength.self)
        } throws: { error in
            (error as? MissingSystemLibrary)?.cause
                == "libc.so.6 has no function preload_no_such_function: the installed version is older than this plugin needs"
        }
    }

    /// The template a plugin's binding follows: a location and a symbol list; opened once.
    @Test func aBindingOpensItsLibraryOnceAndResolvesItsSymbols() throws {
        let libc = try CLibrary.get()
        #expect(libc.stringLength("preload") == 7)
        #expect(CLibrary.isAvailable)
        #expect(CLibrary.location.fileNames == ["libc.so.6"] && CLibrary.location.package == "libc6")
    }

    @Test func aBindingWhoseLibraryIsMissingNamesTheLibraryAndPackage() {
        #expect {
            try CLibrary.opened(fileNames: ["libpreload-none.so.9"]).get()
        } throws: { error in
            let missing = error as! MissingSystemLibrary
            return missing.library == "the C library" && missing.package == "libc6" && missing.fileNames == ["libpreload-none.so.9"]
        }
    }

    @Test func aBindingWhoseLibraryLacksASymbolSaysSo() {
        #expect {
            try TooNewCLibrary.get()
        } throws: { error in
            (error as? MissingSystemLibrary)?.cause
                == "libc.so.6 has no function preload_no_such_function: the installed version is older than this plugin needs"
        }
        #expect(!TooNewCLibrary.isAvailable)
    }

    /// A plugin whose library is missing fails only its own assets, each by name with the
    /// package to install; the batch's other assets load.
    @Test func aMissingLibraryFailsOnlyTheAssetsThatNeedIt() async throws {
        let directory = try TemporaryDirectory("system-library-tests")
        let text = try directory.write("a.txt", text: "hello")
        let needing = try directory.write("b.needslib", text: "data")
        let coordinator = try PreloadCoordinator(plugins: [TextLoader(), NeedsMissingLibraryLoader()])
        let report = try await coordinator.preload([AssetRequest(path: text), AssetRequest(path: needing)])
        #expect(report.loaded.map(\.request.path) == [text])
        let failure = try #require(report.failed.first?.outcome.error)
        #expect(failure.category == .libraryMissing)
        #expect(failure.description.hasPrefix("\(needing): needs libnothing (libpreload-none.so.9)"))
    }
}

/// A plugin that needs a library no machine has.
private struct NeedsMissingLibraryLoader: LoaderPlugin {
    static let library = Result { () throws(MissingSystemLibrary) in
        try SystemLibrary.open("libnothing", fileNames: ["libpreload-none.so.9"], package: "libnothing9")
    }
    var identifier: String { "needslib" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["needslib"] }

    func load(_ context: LoadContext) throws -> any Asset {
        _ = try Self.library.get()
        return TextAsset(text: "never")
    }
}

/// The C library as a third-party plugin's binding would declare it.
private struct CLibrary: SystemLibraryBinding {
    static let location = SystemLibraryLocation("the C library", soname: "libc.so.6", debian: "libc6", dylib: "libSystem.B.dylib", homebrew: "")
    static let shared = opened()
    let stringLength: SystemLibraryTests.StringLength

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        stringLength = try library.function("strlen")
    }
}

/// A binding that asks for a function its library lacks.
private struct TooNewCLibrary: SystemLibraryBinding {
    static let location = SystemLibraryLocation("the C library", fileNames: ["libc.so.6"], package: "libc6")
    static let shared = opened()
    let missing: SystemLibraryTests.StringLength

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        missing = try library.function("preload_no_such_function")
    }
}
