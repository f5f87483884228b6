import Foundation
import Testing

/// `swift run game-boot`: the simulated start-up runs to the end, every step after what it needs.
@Suite struct GameBootTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test(arguments: 1...3)
    func everyStepHappensAfterWhatItNeeds(run: Int) async throws {
        let result = try await CommandRunner.run("game-boot", [], in: Self.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func line(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        let login = try #require(line("log in: done")), download = try #require(line("download user data: done"))
        let parse = try #require(line("parse user data: both"))
        let loaded = try #require(line("loading [####################] 13/13"))
        let started = try #require(line("game started"))
        #expect(parse > login && parse > download, "parsing waits for both, whichever finishes last")
        #expect(started > parse && started > loaded)
        #expect(try #require(line("state: title screen")) > loaded)
        let processed = lines.filter { $0.contains("processed ") }.map { $0.components(separatedBy: "processed ")[1] }
        #expect(
            processed.first == "sprites/coin.png (in request order)" && processed.count == 9,
            "the caller's 9 requests; their dependencies are not processed again")
        #expect(try #require(line("stage: intro")) > (try #require(line("stage: level data"))))
        #expect(lines.last?.contains("state: level 1") == true)
    }
}
