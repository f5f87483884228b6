import Foundation
import Preload
import PreloadFlow
import PreloadTestSupport
import Testing

/// A state that logs its activations and the events it sees, and handles the events it is told to.
@MainActor
final class LoggingState: GameState<String> {
    let log: Log
    let handles: Set<String>
    let eventRouting: EventRouting

    init(_ name: String, log: Log, handles: Set<String> = [], routing: EventRouting = .substateFirst) {
        self.log = log
        self.handles = handles
        self.eventRouting = routing
        super.init(name: name)
    }

    override var routing: EventRouting { eventRouting }
    override func activate() { log.add("+\(name)") }
    override func deactivate() { log.add("-\(name)") }
    override func handle(_ event: String) -> Bool {
        log.add("\(name) sees \(event)")
        return handles.contains(event)
    }
}

@MainActor
final class Log {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}

@MainActor
@Suite struct StateMachineTests {
    @Test func pushPopAndSetActivateAndDeactivateInOrder() {
        let log = Log()
        let machine = StateMachine<String>()
        let menu = LoggingState("menu", log: log)
        menu.push(LoggingState("menu.main", log: log))  // menu is not in a machine yet: nothing activates
        #expect(log.take().isEmpty)
        machine.set(menu)
        #expect(log.take() == ["+menu", "+menu.main"], "parents before substates")
        machine.push(LoggingState("level", log: log))
        #expect(log.take() == ["-menu.main", "-menu", "+level"], "substates before parents")
        machine.pop()
        #expect(log.take() == ["-level", "+menu", "+menu.main"])
        menu.push(LoggingState("menu.options", log: log))
        #expect(log.take() == ["-menu.main", "+menu.options"])
        menu.set(LoggingState("menu.credits", log: log))
        #expect(log.take() == ["-menu.options", "+menu.credits"])
        #expect(menu.substates.map(\.name) == ["menu.main", "menu.credits"])
        machine.set(LoggingState("game over", log: log))
        #expect(log.take() == ["-menu.credits", "-menu", "+game over"])
        #expect(machine.states.map(\.name) == ["game over"] && machine.activeChain.map(\.name) == ["game over"])
        #expect(machine.pop()?.name == "game over" && machine.current == nil)
        #expect(log.take() == ["-game over"])
    }

    @Test func eventsGoDownTheChainAsEachStateRoutesThem() {
        let log = Log()
        let machine = StateMachine<String>()
        let game = LoggingState("game", log: log, handles: ["quit", "tap"])
        let level = LoggingState("level", log: log, handles: ["tap", "jump"], routing: .selfFirst)
        let pause = LoggingState("pause", log: log, handles: ["tap"])
        machine.set(game)
        game.push(level)
        level.push(pause)
        _ = log.take()
        #expect(machine.activeChain.map(\.name) == ["game", "level", "pause"])

        #expect(machine.send("tap"))  // game lets level try first; level tries itself first
        #expect(log.take() == ["level sees tap"])
        #expect(machine.send("quit"))
        #expect(log.take() == ["level sees quit", "pause sees quit", "game sees quit"])
        #expect(!machine.send("sneeze"), "unhandled events are reported as such")
        #expect(log.take() == ["level sees sneeze", "pause sees sneeze", "game sees sneeze"])

        let both = StateMachine<String>()
        let hud = LoggingState("hud", log: log, handles: ["tick"], routing: .both)
        both.set(hud)
        hud.push(LoggingState("minimap", log: log, handles: ["tick"]))
        _ = log.take()
        #expect(both.send("tick"))
        #expect(log.take() == ["minimap sees tick", "hud sees tick"], "both see it, the substate first")

        let alone = StateMachine<String>()
        let modal = LoggingState("modal", log: log, routing: .selfOnly)
        alone.set(modal)
        modal.push(LoggingState("hidden", log: log, handles: ["tap"]))
        _ = log.take()
        #expect(!alone.send("tap"))
        #expect(log.take() == ["modal sees tap"])
    }

    @Test func replacingAStateLowerInTheStackIsQuiet() {
        let log = Log()
        let machine = StateMachine<String>()
        let loading = LoggingState("loading", log: log)
        machine.set(loading)
        machine.push(LoggingState("pause", log: log))
        _ = log.take()
        loading.replace(with: LoggingState("level", log: log))
        #expect(log.take().isEmpty, "covered by the pause menu: nothing activates yet")
        machine.pop()
        #expect(log.take() == ["-pause", "+level"])
        #expect(machine.states.map(\.name) == ["level"])
    }

    @Test func theMachineReportsEveryChange() {
        let machine = StateMachine<String>()
        var changes: [StateMachine<String>.Change] = []
        machine.onChange = { changes.append($0) }
        let log = Log()
        machine.set(LoggingState("a", log: log))
        machine.set(LoggingState("b", log: log))
        #expect(changes == [.activated("a"), .deactivated("a"), .activated("b")])
    }
}
