import CPreloadCurl
import Preload

/// libcurl, opened at run time (`libcurl.so.4`, Debian's `libcurl4`: every machine with Swift's
/// Foundation has it, since FoundationNetworking is built on it), so the package builds without
/// its headers and a game links nothing for it. Without it, every remote file fails with
/// ``MissingSystemLibrary`` naming the package.
struct LibCurl: SystemLibraryBinding {
    /// The addresses of the functions `CPreloadCurl` calls, resolved once (as bits: an address
    /// in a library never unloaded).
    private let addresses: [UInt]

    /// The process's libcurl, opened and set up on first use.
    static let shared = opened()
    static let location = SystemLibraryLocation("libcurl", fileNames: ["libcurl.so.4"], package: "libcurl4")

    private static let symbols = [
        "curl_global_init", "curl_easy_init", "curl_easy_setopt", "curl_easy_perform", "curl_easy_getinfo", "curl_easy_cleanup",
        "curl_slist_append", "curl_slist_free_all",
    ]

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        var addresses: [UInt] = []
        for symbol in Self.symbols {
            addresses.append(UInt(bitPattern: try library.function(symbol, as: UnsafeMutableRawPointer.self)))
        }
        self.addresses = addresses
        var api = self.api
        _ = preload_curl_global_init(&api)  // once, before any transfer (this initializer runs once)
    }

    /// The functions, as the shim takes them.
    var api: preload_curl_api {
        let pointer = { (index: Int) in UnsafeMutableRawPointer(bitPattern: addresses[index]) }
        return preload_curl_api(
            global_init: pointer(0), easy_init: pointer(1), easy_setopt: pointer(2), easy_perform: pointer(3), easy_getinfo: pointer(4),
            easy_cleanup: pointer(5), slist_append: pointer(6), slist_free_all: pointer(7))
    }
}
