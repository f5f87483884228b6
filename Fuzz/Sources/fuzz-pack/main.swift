import FuzzSupport
import PreloadPack

/// Reads the input as a pack (pak, zip or gzip, told apart by content), then every entry of it
/// with small limits: any outcome but a thrown error or a result is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPack(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let path = FuzzInput.writePack(data, count)
    guard let index = try? PackIndexReader.index(at: path) else { return 0 }
    let limits = PackLimits(maxEntryBytes: 1 << 20, maxInflateRatio: 64, ratioCheckedAbove: 4096)
    for entry in index.entries {
        _ = try? EntryReader.prefix(entry, from: path, count: 16)
        _ = try? EntryReader.read(entry, from: path, limits: limits)
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_pack_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzPack)
}
