import Foundation
import PreloadTestSupport
import Testing

@testable import Preload
@testable import PreloadCLI

/// A batch feature that cannot do its part (a load log whose folder is gone) is the command's
/// error, naming the outlet and the cause, and fails the command: it is never passed over.
@Suite struct OutletFailureLinesTests {
    struct LogFolderGone: Error, CustomStringConvertible {
        var description: String { "the log's folder is gone" }
    }

    /// Fails at `completed`, and at every `loaded` event too with `.everyEvent`.
    final class UnwritableLogOutlet: BatchOutlet {
        enum Failing { case atCompletion, everyEvent }
        let failing: Failing
        init(failing: Failing) { self.failing = failing }
        func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) throws {
            if failing == .everyEvent { throw LogFolderGone() }
        }
        func completed(_ report: inout PreloadReport, ledger: borrowing BatchState) throws { throw LogFolderGone() }
    }

    struct Note: Asset {
        var kind: AssetKind { "note" }
        var byteCount: Int
    }

    struct NoteLoader: LoaderPlugin {
        var identifier: String { "note" }
        var assetKind: AssetKind { "note" }
        var fileExtensions: Set<String> { ["note"] }
        func load(_ context: LoadContext) throws -> any Asset { Note(byteCount: try context.readContents().count) }
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The report of a batch of `files` notes, with an `UnwritableLogOutlet` unless `failing` is `nil`.
    private func report(files: Int, failing: UnwritableLogOutlet.Failing?) async throws -> PreloadReport {
        let requests = try (0..<files).map { AssetRequest(path: try directory.write("f\($0).note", text: "file \($0)")) }
        let coordinator = try PreloadCoordinator(plugins: [NoteLoader()], configuration: .init(maxConcurrentLoads: 1))
        let outlets: [any BatchOutlet] = failing.map { [UnwritableLogOutlet(failing: $0)] } ?? []
        return try await coordinator.start(requests, outlets: outlets).finished()
    }

    @Test func anOutletThatFailsIsAnErrorNamingItsOutletAndCauseAndFailsTheCommand() async throws {
        let report = try await report(files: 3, failing: .atCompletion)
        #expect(report.everythingLoaded, "the assets loaded: the outlet's failure is not theirs")
        #expect(OutletFailureLines.lines(of: report) == ["batch outlet UnwritableLogOutlet failed at completed: the log's folder is gone"])
        #expect(OutletFailureLines.printed(report), "the command fails")
    }

    @Test func anOutletThatFailsTheSameWayAtEveryLoadIsOneLineWithItsCount() async throws {
        let report = try await report(files: 3, failing: .everyEvent)
        let loads = report.outletFailures.count - 1
        #expect(loads >= 1)
        let lines = OutletFailureLines.lines(of: report)
        #expect(
            lines == [
                "batch outlet UnwritableLogOutlet failed at loaded: the log's folder is gone" + (loads > 1 ? " (\(loads) times)" : ""),
                "batch outlet UnwritableLogOutlet failed at completed: the log's folder is gone",
            ])
    }

    @Test func aBatchWhoseOutletsDidTheirPartSaysNothingAndDoesNotFail() async throws {
        let report = try await report(files: 2, failing: nil)
        #expect(OutletFailureLines.lines(of: report).isEmpty)
        #expect(!OutletFailureLines.printed(report))
    }
}
