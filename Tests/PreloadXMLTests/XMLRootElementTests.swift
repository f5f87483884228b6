import PreloadXML
import Testing

/// The root element's name, read off a document's first bytes past everything that may come
/// before it; `nil` while the bytes end first.
@Suite struct XMLRootElementTests {
    private func name(_ text: String) -> String? { XMLRootElement.name(in: Array(text.utf8)) }

    @Test func theRootElementComesAfterTheProlog() {
        #expect(name("<font><info/></font>") == "font")
        #expect(name("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- by hand -->\n<map version=\"1.10\">") == "map")
        #expect(name("<!DOCTYPE svg [<!ENTITY a \"<font>\">]>\n<svg><defs><font/></defs></svg>") == "svg")
        #expect(name("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"><defs><font>") == "svg")
        #expect(name("info face=\"x\"") == "")
    }

    @Test func bytesThatEndBeforeTheNameDoNotTell() {
        #expect(name("<?xml version=\"1.0\"?>\n<!-- a long comment") == nil)
        #expect(name("<!DOCTYPE svg [<!ENTITY a \"x\">") == nil)
        #expect(name("<fon") == nil)
        #expect(name("") == nil)
    }
}
