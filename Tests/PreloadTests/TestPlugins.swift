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

// The helpers keep shared state in `Locked` (from Preload): a Mutex that sanitizer
// builds make visible to ThreadSanitizer.

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

    func load(_ context: LoadContext) throws -> any Asset {
        loads.increment()
        let text = String(decoding: try context.readContents(), as: UTF8.self)
        order.append(context.request.path)
        if text.contains("FAIL") { throw BadText() }
        return TextAsset(text: text)
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

    func load(_ context: LoadContext) throws -> any Asset {
        let parts = try dependencies(of: context.request)
        order.append(context.request.path)
        let texts = try parts.map { try context.dependency($0, as: TextAsset.self).text }
        return TextAsset(text: texts.joined(separator: "+"))
    }
}

/// Loads `.gate` files slowly: each load reports progress in steps and waits for its gate
/// (``Gate``, from PreloadTestSupport) to open, or for cancellation, between steps, the way a
/// long decode polls between rows.
struct GateLoader: LoaderPlugin {
    var identifier: String { "gate" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["gate"] }
    let gate: Gate
    var steps = 10

    func load(_ context: LoadContext) throws -> any Asset {
        gate.started.signal()
        for step in 1...steps {
            // Woken by the gate opening; the timeout is how often a closed gate checks for
            // cancellation, which has no signal of its own (a decode polls between rows too).
            while !gate.waitUntilOpen(timeout: .milliseconds(1)) {
                try context.checkCancellation()
            }
            try context.checkCancellation()
            gate.stepsTaken.increment()
            usleep(2_000)  // the step's work: models its duration, nothing waits on it
            context.reportProgress(Double(step) / Double(steps))
        }
        return DataAsset(bytes: try context.readContents())
    }
}

/// Waits for `batch` by blocking the calling thread: only for code running on a dispatch queue
/// (inside a hook); async tests use `try await batch.finished()`.
func finishBlocking(_ batch: PreloadBatch, within seconds: Double) -> PreloadReport? {
    let done = DispatchSemaphore(value: 0)
    batch.whenFinished { _ in done.signal() }
    return done.wait(timeout: .now() + seconds) == .success ? batch.report : nil
}

/// Loads `.delay` files, whose text is a number of milliseconds to wait, "after NAME" (finish
/// only once the load named NAME has finished), or "FAIL": lets a test decide the order in which
/// loads finish without relying on timing. The operations wait without holding a thread (they
/// finish from elsewhere), so a chain of waits cannot starve the queue.
struct DelayLoader: LoaderPlugin {
    var identifier: String { "delay" }
    var assetKind: AssetKind { AssetKind(rawValue: "text") }
    var fileExtensions: Set<String> { ["delay"] }
    let line = FinishLine()

    /// The names of the loads, in the order they finished.
    var finished: Recorder<String> { line.order }

    var loadsAsynchronously: Bool { true }

    func load(_ context: LoadContext, completion: @escaping @Sendable (Result<any Asset, any Error>) -> Void) {
        let name = context.request.request.name
        line.started.append(name)
        let text: String
        do {
            text = String(decoding: try context.readContents(), as: UTF8.self)
        } catch {
            completion(.failure(error))
            return
        }
        let done: @Sendable () -> Void = { [line] in
            // Finished in the batch first, then the loads waiting for this one may go.
            completion(text == "FAIL" ? .failure(TextLoader.BadText()) : .success(TextAsset(text: text)))
            line.finish(name)
        }
        if text.hasPrefix("after ") {
            line.after(String(text.dropFirst(6)), done)
        } else {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(text) ?? 0), execute: done)
        }
    }
}

/// Who has finished, and who waits for whom.
final class FinishLine: Sendable {
    let order = Recorder<String>()
    /// The loads in the order they started executing.
    let started = Recorder<String>()
    /// The names loads began waiting for ("after NAME"), in order: a test waits on it to know a
    /// load holds its slot.
    let awaited = Recorder<String>()
    private let state = Locked<(done: Set<String>, waiting: [String: [@Sendable () -> Void]])>(([], [:]))

    func finish(_ name: String) {
        order.append(name)
        let waiting = state.withLock { state in
            state.done.insert(name)
            return state.waiting.removeValue(forKey: name) ?? []
        }
        for waiter in waiting { DispatchQueue.global().async(execute: waiter) }
    }

    /// Whether some load is waiting for `name` to finish.
    func isAwaited(_ name: String) -> Bool { state.withLock { $0.waiting[name] != nil } }

    func after(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if state.done.contains(name) { return true }
            state.waiting[name, default: []].append(body)
            return false
        }
        if now { body() } else { awaited.append(name) }
    }
}
