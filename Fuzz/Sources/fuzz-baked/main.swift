import Dispatch
import FuzzSupport
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadAudio
import PreloadBaked
import PreloadFont
import PreloadTileMap

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the input as a baked pack: its index directly (`BakedIndex`, on the bytes as they came
/// and once sealed), then the whole pack through a `PreloadCoordinator` with `BakedPackLoader`,
/// which expands it to one request per entry and loads each (textures, atlases with their pages,
/// data, sounds, fonts, maps, animations) as a view into the file's mapping: the kinds' plugins are registered
/// beside it, since each kind reads its own entries. Any outcome but a thrown error or a report is a
/// finding; so is a batch that never completes (libFuzzer's timeout).
///
/// An input that starts with the baked-pack signature is sealed first: the header's file length,
/// every entry's data checksum (where its record and data lie in the file), the index's and the
/// header's checksums are made right, so mutations reach the index checks and the entries
/// instead of stopping at a checksum (a hostile pack has correct checksums too).
let coordinator: PreloadCoordinator = {
    try! PreloadCoordinator(
        plugins: [AtlasLoader(), AudioLoader(), BitmapFontLoader(), TileMapLoader(), AsepriteLoader(), BakedPackLoader()],
        configuration: .init(maxConcurrentLoads: 2))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaked(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    _ = bytes.withUnsafeBytes { try? BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
    sealBake(&bytes)
    _ = bytes.withUnsafeBytes { try? BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
    // A new file for each input: the loader knows a pack by its device, inode and modification
    // time, and rewriting one file in place can keep all three within a clock tick.
    unlink("/dev/shm/preload-fuzz-\(getpid())/x.bake")
    let path = bytes.withUnsafeBufferPointer { FuzzInput.write($0.baseAddress, $0.count, name: "x.bake") }
    let done = DispatchSemaphore(value: 0)
    coordinator.preload([AssetRequest(path: path)], options: PreloadOptions(storesAssets: false)) { _ in
        done.signal()
    }
    done.wait()
    return 0
}

/// Gives a baked pack's input the length and checksums its header and index call for.
func sealBake(_ bytes: inout [UInt8]) {
    guard bytes.count >= BakedFormat.headerSize, bytes[0..<8].elementsEqual(BakedFormat.magic) else { return }
    func field(_ at: Int, _ size: Int) -> UInt64 {
        (0..<size).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
    func store(_ value: UInt64, at: Int, _ size: Int) {
        for byte in 0..<size { bytes[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
    }
    func crc(_ start: UInt64, _ count: UInt64) -> UInt64 {
        UInt64(bytes[Int(start)..<Int(start + count)].withUnsafeBytes { BakedChecksum.crc32($0) })
    }
    let size = UInt64(bytes.count)
    store(size, at: 16, 8)
    let offset = field(24, 8), length = field(32, 8)
    if offset <= size, length <= size - offset {
        for record in 0..<min(field(40, 4), length / 64) {
            let base = offset + record * 64
            let start = field(Int(base), 8), count = field(Int(base) + 8, 8)
            if start <= size, count <= size - start { store(crc(start, count), at: Int(base) + 24, 4) }
        }
        store(crc(offset, length), at: 44, 4)
    }
    store(crc(0, 60), at: 60, 4)
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_baked_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzBaked)
}
