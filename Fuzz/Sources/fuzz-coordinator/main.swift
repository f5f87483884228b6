import Dispatch
import FuzzSupport
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadPack

/// The whole pipeline on one hostile pack: the coordinator opens it (pak, zip or gzip, by
/// content), plans an asset per entry, hands PNG and atlas entries to their plugins (an atlas's
/// pages resolved inside the same pack) and reads the rest as data, all under small limits. Any
/// outcome but a report is a finding; so is a batch that never completes (libFuzzer's timeout).
///
/// Every byte buffer of every size goes through the memory pool, which keeps up to 16 MiB
/// between inputs, so pooled regions are reused (and misused, if they ever were) all the time.
let coordinator: PreloadCoordinator = {
    AssetMemory.shared.configuration = AssetMemory.Configuration(smallestPooledSize: 1, retainedLimit: 16 << 20)
    return try! PreloadCoordinator(
        plugins: [
            PNGLoader(defaults: PNGLoaderSettings(limits: ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20))),
            AtlasLoader(),
            PackLoader(limits: PackLimits(maxEntryBytes: 1 << 20, maxInflateRatio: 64, ratioCheckedAbove: 4096)),
        ],
        configuration: .init(maxConcurrentLoads: 2))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoordinator(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let path = FuzzInput.writePack(data, count)
    let done = DispatchSemaphore(value: 0)
    coordinator.preload([AssetRequest(path: path, plugin: "pack")], options: PreloadOptions(storesAssets: false)) { _ in
        done.signal()
    }
    done.wait()
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_coordinator_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzCoordinator)
}
