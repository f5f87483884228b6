import BenchSupport
import CBareDecode
import CBenchSupport
import Foundation
import Preload
import PreloadBaked

/// The decode baseline: `bare_decode_all`, a bare C libpng loop on `jobs` pthreads keeping every
/// image (the work loading the loose PNGs is).
struct BareDecodeSide {
    let paths: [String]
    let jobs: Int

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let stats = withCStrings(paths) { bare_decode_all($0, paths.count, Int32(jobs), 1) }
        let seconds = (ContinuousClock.now - clock).seconds
        precondition(stats.failures == 0, "bare loop failed on \(stats.failures) files")
        let measurement = memory.finish(seconds: seconds, decodedBytes: Int(stats.decoded_bytes), checksum: stats.checksum)
        bench_release_kept()
        return measurement
    }
}

/// The memory-speed ceiling: map the pack and CRC-32 every texture entry's bytes on `jobs`
/// threads, nothing else (what loading a verified baked pack cannot beat).
struct MapAndCRCSide {
    let pack: String
    let jobs: Int

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let mapping = try! FileMapping(path: pack)
        let index = mapping.withUnsafeBytes { try! BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let textures = index.entries.filter { $0.kind == "texture" && !$0.record.bits.contains(.atlasPage) }
        let sums = (0..<jobs).map { _ in Sum() }
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            var bytes = 0
            for position in stride(from: worker, to: textures.count, by: jobs) {
                let record = textures[position].record
                let crc = mapping.withUnsafeBytes(offset: Int(record.dataOffset), count: Int(record.dataLength), BakedChecksum.crc32)
                precondition(crc == record.dataChecksum, "entry \(textures[position].name) is damaged")
                bytes += Int(record.dataLength)
            }
            sums[worker].bytes = bytes
        }
        let seconds = (ContinuousClock.now - clock).seconds
        return memory.finish(seconds: seconds, decodedBytes: sums.reduce(0) { $0 + $1.bytes }, checksum: 0)
    }

    private final class Sum: @unchecked Sendable { var bytes = 0 }  // one writer each, read after the join
}

/// The product: a coordinator with the baked-pack plugin, one request for the pack (every asset
/// in it, each with its result, store entry, hooks and progress), a progress hook, every texture
/// kept in the store; each entry's checksum verified (the default) unless `trusts`.
struct BakedSide {
    let pack: String
    let coordinator: PreloadCoordinator

    init(pack: String, jobs: Int, trusts: Bool) throws {
        self.pack = pack
        coordinator = try PreloadCoordinator(
            plugins: [BakedPackLoader(verification: trusts ? .indexOnly : .everyEntry)], configuration: .init(maxConcurrentLoads: jobs))
    }

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let report = coordinator.preloadAndWait([AssetRequest(path: pack)], hooks: PreloadHooks(onProgress: { _ in }))
        let seconds = (ContinuousClock.now - clock).seconds
        let cpu = MemoryProbe.cpuTime()
        precondition(report.everythingLoaded, "baked load failed: \(report.errors.prefix(3))")
        var bytes = 0
        var checksum: UInt64 = 0
        for result in report.results {
            guard let texture = result.outcome.asset as? Texture else { continue }
            bytes += texture.pixels.count
            checksum &+= texture.pixels.withUnsafeBufferPointer { bench_checksum($0.baseAddress, $0.count) }
        }
        let measurement = memory.finish(seconds: seconds, decodedBytes: bytes, checksum: checksum, cpuEnd: cpu)
        coordinator.assets.unloadAll()
        return measurement
    }
}
