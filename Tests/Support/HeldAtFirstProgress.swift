import Dispatch
import Foundation
import Preload

/// Where a ``HeldAtFirstProgressLoader`` holds its decodes: at the first progress report, until
/// the batch is cancelled. A test waits on ``reached``, cancels, and reads ``ends``.
public final class ProgressHold: Sendable {
    /// How a held decode ended.
    public enum End: Equatable, Sendable {
        /// It threw `CancellationError`: the decoder stopped at a check after the cancel.
        case stopped
        /// It decoded the whole image.
        case finished
        /// It failed with another error (described).
        case failed(String)
    }

    /// Signalled when a decode reports its first progress and is held there (or ends without
    /// reporting any, so that a test waiting on it does not wait in vain).
    public let reached = DispatchSemaphore(value: 0)
    /// How long a held decode waits for its batch to be cancelled before it goes on.
    public let bound: Duration
    private let recorded = Locked<[End]>([])

    /// A hold whose decodes wait for cancellation up to `bound`.
    public init(bound: Duration = .seconds(120)) {
        self.bound = bound
    }

    /// How each decode ended, in order.
    public var ends: [End] { recorded.withLock { $0 } }

    /// Signals ``reached`` and waits until `context`'s batch is cancelled (polled every
    /// millisecond: cancellation has no signal of its own), or ``bound`` passes.
    func hold(_ context: LoadContext) {
        reached.signal()
        let deadline = ContinuousClock.now + bound
        while !context.isCancelled && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }

    func record(_ end: End) {
        recorded.withLock { $0.append(end) }
    }
}

/// `ImageLoader<Codec>` whose decode, at its first progress report (a chunk of the image done,
/// more to come), is held until its batch is cancelled: a test cancels while a decode is surely
/// in flight, on a machine however busy, and sees whether the decoder stops at its next check
/// (``ProgressHold/ends``) instead of racing a thread against the decode.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadTestSupport
/// import Testing
///
/// @Test func decodeStopsBetweenRows() async throws {
///     let directory = try TemporaryDirectory("rows")
///     let big = try directory.write("big.png", PNGFixture.noise(width: 512, height: 512))
///     let hold = ProgressHold()
///     let coordinator = try PreloadCoordinator(plugins: [HeldAtFirstProgressLoader(PNGLoader(), hold: hold)])
///     let batch = coordinator.start([AssetRequest(path: big)])
///     #expect(await hold.reached.waitWithoutBlocking(seconds: 120))  // in flight, and held
///     batch.cancel()
///     let report = try await batch.finished()
///     #expect(report.wasCancelled && hold.ends == [.stopped])
/// }
/// ```
public struct HeldAtFirstProgressLoader<Codec: ImageDecoder>: LoaderPlugin {
    /// The loader whose options and claims apply.
    public let loader: ImageLoader<Codec>
    /// Where decodes are held.
    public let hold: ProgressHold

    /// `loader`, its decodes held at `hold`.
    public init(_ loader: ImageLoader<Codec>, hold: ProgressHold) {
        self.loader = loader
        self.hold = hold
    }

    public var identifier: String { loader.identifier }
    public var assetKind: AssetKind { loader.assetKind }
    public var fileExtensions: Set<String> { loader.fileExtensions }
    public var headerLength: Int { loader.headerLength }
    public func matchesSignature(_ header: [UInt8]) -> Bool { loader.matchesSignature(header) }
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? { loader.estimatedDecodedBytes(header: header) }

    /// What `ImageLoader.load(_:)` does, with the hold in the progress report.
    public func load(_ context: LoadContext) throws -> any Asset {
        var held = false
        do {
            let texture = try Codec.decode(
                try context.readContents(), options: loader.options(for: context.request), memory: context.memory,
                isCancelled: { context.isCancelled },
                progress: { fraction in
                    context.reportProgress(fraction)
                    if !held && fraction > 0 && fraction < 1 {
                        held = true
                        hold.hold(context)
                    }
                },
                warn: { try context.warn($0) })
            hold.record(.finished)
            if !held { hold.reached.signal() }
            return texture
        } catch is CancellationError {
            hold.record(.stopped)
            throw CancellationError()
        } catch {
            hold.record(.failed("\(error)"))
            if !held { hold.reached.signal() }
            throw error
        }
    }
}

/// Starts `request` with `loader` in a coordinator of its own, its decode held at its first
/// progress report (``HeldAtFirstProgressLoader``), cancels the batch once it is held, and
/// returns the batch's report, how the decode ended (``ProgressHold/End/stopped`` when the decoder
/// heard the cancel) and how many assets the coordinator kept. Throws ``TimedOut`` if the decode
/// is not held within two minutes or the batch does not end within five.
///
/// The cancel comes from a thread of its own, the moment the decode is held: a task of the test
/// could wait minutes for a cooperative thread while every test of the process runs at once
/// (under ThreadSanitizer on two cores, it waited past the hold's two minutes).
public func cancelledInFlight<Codec: ImageDecoder>(
    _ loader: ImageLoader<Codec>, _ request: AssetRequest
) async throws -> (report: PreloadReport, ends: [ProgressHold.End], assets: Int) {
    let hold = ProgressHold()
    let coordinator = try PreloadCoordinator(plugins: [HeldAtFirstProgressLoader(loader, hold: hold)])
    let batch = coordinator.start([request])
    let heldInTime = Locked<Bool?>(nil)
    Thread.detachNewThread {
        let held = hold.reached.wait(timeout: .now() + 120) == .success
        heldInTime.withLock { $0 = held }
        if held { batch.cancel() }
    }
    let report = try await batch.finished(within: 300)
    if heldInTime.withLock({ $0 }) == false { throw TimedOut(seconds: 120) }
    return (report, hold.ends, coordinator.assets.count)
}
