import Preload
import PreloadJPEG
import Testing

/// Cancellation and progress inside one decode.
@Suite struct JPEGCancellationTests {
    @Test func aProgressiveDecodeStopsWhileItsScansAreRead() throws {
        let data = try JPEGFixtures.bytes("large-flat.jpg")
        var cancelled = false
        var reports: [Double] = []
        #expect(throws: CancellationError.self) {
            _ = try JPEGDecoder.decode(
                data, isCancelled: { cancelled },
                progress: { fraction in
                    reports.append(fraction)
                    cancelled = true
                })
        }
        #expect(reports.count == 1 && reports[0] < 0.75, "stopped at the next poll, before any row: \(reports)")
    }

    @Test func aSequentialDecodeStopsBetweenChunksOfRows() throws {
        let data = try JPEGFixtures.bytes("wide-flat.jpg")  // 4096 x 256: 4 rows of 16 KiB a chunk
        var all: [Double] = []
        let texture = try JPEGDecoder.decode(data, progress: { all.append($0) })
        #expect(texture.width == 4096 && texture.height == 256 && texture.rgba8(x: 4095, y: 255) == SIMD4(128, 128, 128, 255))
        #expect(all.count == 63 && all == all.sorted() && all.first == 4.0 / 256)

        var cancelled = false
        var reports: [Double] = []
        #expect(throws: CancellationError.self) {
            _ = try JPEGDecoder.decode(
                data, isCancelled: { cancelled },
                progress: { fraction in
                    reports.append(fraction)
                    cancelled = true
                })
        }
        #expect(reports == [4.0 / 256])
    }

    @Test func aProgressiveDecodeReportsItsScansThenItsRows() throws {
        var all: [Double] = []
        let texture = try JPEGDecoder.decode(try JPEGFixtures.bytes("large-flat.jpg"), progress: { all.append($0) })
        #expect(texture.height == 4096)
        #expect(all == all.sorted() && all.contains { $0 < 0.75 } && all.contains { $0 > 0.75 } && all.allSatisfy { $0 < 1 })
    }
}
