import PreloadTestSupport
import Testing

@testable import Preload

/// Planning opens a file on disk once: its facts from `fstat` of the open descriptor, and either
/// the whole file (small, within the read-ahead budget) or its first bytes for the claim rule,
/// read from the same descriptor rather than by opening the file again.
@Suite struct FileProbeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Probes `path` with a read-ahead budget of `budget` bytes, with the first bytes it read.
    private func probe(_ path: String, budget: Int, headerLength: Int) throws -> (facts: FileFacts, contents: AssetBytes?, header: [UInt8]?) {
        var allowance = ReadAheadAllowance(ReadAheadBudget(bytes: budget))
        var contents: AssetBytes?
        var header: [UInt8]?
        let facts = try FileProbe.probe(
            path, readingAhead: true, contents: &contents, header: &header, headerLength: headerLength, budget: &allowance, memory: .shared)
        return (facts, contents, header)
    }

    @Test func aFileNotReadAheadHasItsFirstBytesReadWhileOpen() throws {
        let text = "TEXT:a file the budget has no room for"
        let path = try directory.write("past-the-budget.txt", text: text)
        let probed = try probe(path, budget: 0, headerLength: 8)
        #expect(probed.contents == nil, "no room in the budget: not read whole")
        #expect(probed.header == Array("TEXT:a f".utf8), "the claim rule's bytes, from the probe's own open")
        #expect(probed.facts.size == text.utf8.count && !probed.facts.isDirectory)
    }

    @Test func aShortFileGivesWhatItHasAndAReadAheadFileNeedsNoHeader() throws {
        let short = try directory.write("short.txt", text: "TE")
        #expect(try probe(short, budget: 0, headerLength: 8).header == Array("TE".utf8))
        let small = try directory.write("small.txt", text: "TEXT:small")
        let readAhead = try probe(small, budget: 1 << 20, headerLength: 8)
        #expect(readAhead.contents?.array == Array("TEXT:small".utf8) && readAhead.header == nil)
        #expect(try probe(small, budget: 0, headerLength: 0).header == nil, "no header asked for, none read")
        #expect(try probe(directory.path, budget: 0, headerLength: 8).header == nil, "a folder has no first bytes")
    }

    /// The claim rule gives a file the same plugin, with the same warning, whether planning read
    /// it whole or only its first bytes.
    @Test func theClaimRuleAgreesWithoutReadAhead() async throws {
        let registry = try PluginRegistry([TextLoader(), ClaimRuleAgreementTests.BlobLoader()])
        let overruled = try directory.write("text-inside.blob", text: "TEXT:not a blob")
        let sniffed = try directory.write("sniffed.dat", text: "BLOB")
        for budget in [0, 1 << 20] {
            let requests = [AssetRequest(path: overruled), AssetRequest(path: sniffed)]
            let table = PlannedTable(
                callers: CallerRequests(requests), capacity: requests.count, plugins: registry.registeredPlugins, files: registry.files)
            let resolver = RequestResolver(
                registry: registry, table: table, weighting: .fileBytes, readAhead: ReadAheadBudget(bytes: budget), memory: .shared)
            var allowance = ReadAheadAllowance(resolver.readAhead)
            let text = try resolver.resolve(requests[0], entry: 0, readingAhead: &allowance)
            #expect(text.plugin.identifier == "text" && text.planned.claimWarning?.code == .contentNotExtension, "budget \(budget)")
            #expect((text.contents == nil) == (budget == 0))
            let blob = try resolver.resolve(requests[1], entry: 1, readingAhead: &allowance)
            #expect(blob.plugin.identifier == "blob", "budget \(budget)")
        }
    }
}
