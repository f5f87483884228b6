import Foundation
import Preload
import Testing

/// Settings as a command line gives them (text) read as the types a manifest's JSON has.
@Suite struct PluginSettingsValuesTests {
    @Test func textIsReadAsTheTypeAskedFor() throws {
        let values = PluginSettingsValues(text: [
            "padding": "2", "trim": "false", "alpha": "premultiplied", "pages": "a.png,b.png", "grid.frameWidth": "16", "grid.extra": "1",
        ])
        #expect(try values.int("padding", in: 0...4) == 2)
        #expect(try values.bool("trim") == false)
        #expect(try values.string("alpha", oneOf: ["straight", "premultiplied"]) == "premultiplied")
        #expect(try values.strings("pages") == ["a.png", "b.png"])
        let grid = try #require(try values.object("grid"))
        #expect(try grid.int("frameWidth") == 16)
        #expect(values.unreadKeys == ["grid.extra"])
        #expect(try values.int("missing") == nil)
    }

    @Test func aBadTextValueSaysWhatWasExpected() throws {
        let values = PluginSettingsValues(text: ["padding": "two", "trim": "yes", "size": "9"])
        #expect(throws: PluginSettingsProblem("'padding' must be a whole number from 0 to 4")) { try values.int("padding", in: 0...4) }
        #expect(throws: PluginSettingsProblem("'trim' must be true or false")) { try values.bool("trim") }
        #expect(throws: PluginSettingsProblem("'size' must be a whole number from 1 to 8")) { try values.int("size", in: 1...8) }
    }

    @Test func jsonValuesMustHaveTheirTypeAlready() throws {
        let values = PluginSettingsValues(["padding": "2", "trim": NSNumber(value: true), "size": NSNumber(value: 3)])
        #expect(throws: PluginSettingsProblem("'padding' must be a whole number from 0 to 4")) { try values.int("padding", in: 0...4) }
        #expect(try values.bool("trim") == true)
        #expect(throws: PluginSettingsProblem("'size' must be true or false")) { try values.bool("size") }
    }

    @Test(arguments: ["png", "png.=1", ".alpha=x", "pngalpha=x"])
    func anAssignmentThatIsNotKeyNameValueIsRefused(_ assignment: String) throws {
        var options = AssetOptions()
        let problem = try #require(throws: PluginSettingsProblem.self) {
            try PluginSettingsReaders([]).read(assignments: [assignment], into: &options)
        }
        #expect(problem.message == "'\(assignment)' is not KEY.NAME=VALUE (png.alpha=premultiplied, say)")
    }
}
