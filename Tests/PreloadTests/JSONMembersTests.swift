import Preload
import Testing

/// An object's keys, read without building its values; text that ends early says so.
@Suite struct JSONMembersTests {
    private func keys(_ text: String) -> (keys: [String], ranOut: Bool)? {
        guard var members = JSONMembers(Array(text.utf8)) else { return nil }
        var keys: [String] = []
        while let key = members.nextKey() { keys.append(key) }
        return (keys, members.ranOut)
    }

    @Test func nestedValuesAreSkippedWhateverTheyHold() throws {
        let text = #"{"a": [1, {"b": "}]\"{"}, [[]]], "c\u0041": "x\\", "d": {"e": {}}, "f": 2e3, "g": null}"#
        let found = try #require(keys(text))
        #expect(found.keys == ["a", "cA", "d", "f", "g"] && !found.ranOut)
        #expect(keys("[1, 2]") == nil && keys("\"text\"") == nil)
        var members = try #require(JSONMembers(Array(#"{"type": "map", "n": 1, "s": "t"}"#.utf8)))
        #expect(members.nextKey() == "type" && members.stringValue() == "map")
        #expect(members.nextKey() == "n" && members.stringValue() == nil)
        #expect(members.nextKey() == "s" && members.nested() == nil && members.nextKey() == nil)
    }

    @Test func textThatEndsInsideAValueRunsOut() throws {
        let cut = try #require(keys(#"{"layers": [{"data": [1, 2, 3"#))
        #expect(cut.keys == ["layers"] && cut.ranOut)
        let inString = try #require(keys(#"{"name": "unfinished \"quote"#))
        #expect(inString.keys == ["name"] && inString.ranOut)
        // A NUL is not JSON: it stops nothing early.
        let withNUL = try #require(keys("{\"a\": [\"x\u{0}y\", 1], \"b\": 2}"))
        #expect(withNUL.keys == ["a", "b"] && !withNUL.ranOut)
    }
}
