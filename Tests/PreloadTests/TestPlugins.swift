import Dispatch
import Foundation
import Preload  // public API only: these plugins are what a third party would write
import PreloadTestSupport

/// A third-party asset type.
struct TextAsset: Asset, Equatable {
    let text: String
    var kind: AssetKind { AssetKind(rawValue: "text") }
    var byteCount: Int { text.utf8.count }
}

// The test helpers lock with NSLock rather than Synchronization.Mutex: ThreadSanitizer sees
// pthread locks but not Mutex's futex on Linux (see Sources/Preload/SanitizerMutex.swift), and
// these helpers must not drown a sanitizer run in false reports.

/// Counts calls across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// Loads `.txt` files as ``TextAsset``; fails on files that contain "FAIL"; sniffs "TEXT:".
struct TextLoader: LoaderPlugin {
    var identifier = "text"
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> = ["txt"]
    var headerLength: Int { 5 }
    let loads = Counter()
    let order = Recorder<String>()

    struct BadText: AssetFailure {
        var category: AssetError.Category { .corrupt }
        var description: String { "text says FAIL" }
    }

    func matchesSignature(_ header: [UInt8]) -> Bool { header.elementsEqual("TEXT:".utf8) }

    func makeOperation(for request: PlannedRequest) -> AssetOperation {
        ClosureAssetOperation(request: request) { [loads, order] context in
            loads.increment()
            let text = String(decoding: try context.readContents(), as: UTF8.self)
            order.append(context.request.path)
            if text.contains("FAIL") { throw BadText() }
            return TextAsset(text: text)
        }
    }
}

/// A `.bundle` file lists other files, one per line; its asset joins their texts. Proves
/// declared dependencies: they load first, and the bundle reads their results.
struct BundleLoader: LoaderPlugin {
    var identifier: String { "bundle" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["bundle"] }
    let order: Recorder<String>

    func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        let directory = (request.path as NSString).deletingLastPathComponent
        let listing = try String(contentsOfFile: request.path, encoding: .utf8)
        return listing.split(separator: "\n").map {
            AssetRequest(path: (directory as NSString).appendingPathComponent(String($0)))
        }
    }

    func makeOperation(for request: PlannedRequest) -> AssetOperation {
        let parts = (try? dependencies(of: request)) ?? []
        return ClosureAssetOperation(request: request) { [order] context in
            order.append(context.request.path)
            let texts = try parts.map { try context.dependency($0, as: TextAsset.self).text }
            return TextAsset(text: texts.joined(separator: "+"))
        }
    }
}

/// Loads `.gate` files slowly: each load reports progress in steps and waits for the gate to
/// open (or for cancellation) between steps, the way a long decode polls between rows.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var open = false
    let started = DispatchSemaphore(value: 0)
    let stepsTaken = Counter()

    func release() { lock.withLock { open = true } }
    var isOpen: Bool { lock.withLock { open } }
}

struct GateLoader: LoaderPlugin {
    var identifier: String { "gate" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["gate"] }
    let gate: Gate
    var steps = 10

    func makeOperation(for request: PlannedRequest) -> AssetOperation {
        ClosureAssetOperation(request: request) { [gate, steps] context in
            gate.started.signal()
            for step in 1...steps {
                while !gate.isOpen {
                    try context.checkCancellation()
                    usleep(200)
                }
                try context.checkCancellation()
                gate.stepsTaken.increment()
                usleep(2_000)
                context.reportProgress(Double(step) / Double(steps))
            }
            return DataAsset(bytes: try context.readContents())
        }
    }
}

/// Waits for `batch` by blocking the calling thread: only for code running on a dispatch queue
/// (inside a hook); async tests use `try await batch.finished()`.
func finishBlocking(_ batch: PreloadBatch, within seconds: Double) -> PreloadReport? {
    let done = DispatchSemaphore(value: 0)
    batch.whenFinished { _ in done.signal() }
    return done.wait(timeout: .now() + seconds) == .success ? batch.report : nil
}

/// Loads `.delay` files, whose text is a number of milliseconds to sleep before finishing (or
/// "FAIL" to fail): lets a test choose the order in which loads finish.
struct DelayLoader: LoaderPlugin {
    var identifier: String { "delay" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["delay"] }
    let finished = Recorder<String>()

    func makeOperation(for request: PlannedRequest) -> AssetOperation {
        ClosureAssetOperation(request: request) { [finished] context in
            let text = String(decoding: try context.readContents(), as: UTF8.self)
            if text == "FAIL" { throw TextLoader.BadText() }
            usleep(UInt32(Int(text) ?? 0) * 1000)
            finished.append(context.request.request.name)
            return TextAsset(text: text)
        }
    }
}
