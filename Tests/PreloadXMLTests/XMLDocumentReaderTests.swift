import Preload
import PreloadXML
import Testing

@Suite struct XMLDocumentReaderTests {
    private func events(_ text: String) throws -> [XMLEvent] {
        var events: [XMLEvent] = []
        try XMLDocumentReader.read(Array(text.utf8)) { events.append($0) }
        return events
    }

    @Test func elementsAttributesAndTextComeInDocumentOrder() throws {
        let events = try events(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a map -->
            <map version="1.10" name="caf&#233; &amp; bar">
              <layer id="1"><data encoding="csv">
            1,2,
            3,4
            </data></layer>
              <text><![CDATA[<b>bold</b>]]></text>
              <empty/>
            </map>
            """)
        #expect(
            events == [
                .start(XMLStartTag(name: "map", attributes: [XMLAttribute("version", "1.10"), XMLAttribute("name", "café & bar")], line: 3)),
                .start(XMLStartTag(name: "layer", attributes: [XMLAttribute("id", "1")], line: 4)),
                .start(XMLStartTag(name: "data", attributes: [XMLAttribute("encoding", "csv")], line: 4)),
                .text("\n1,2,\n3,4\n"), .end("data"), .end("layer"),
                .start(XMLStartTag(name: "text", attributes: [], line: 8)), .text("<b>bold</b>"), .end("text"),
                .start(XMLStartTag(name: "empty", attributes: [], line: 9)), .end("empty"), .end("map"),
            ])
    }

    @Test func viewsHandOverTheParsersBytes() throws {
        var seen: [String] = []
        try XMLDocumentReader.readViews(Array(#"<font xmlns:x="urn:x"><char id="65" x="12"/>text &amp; more<x:y x:z="1"/></font>"#.utf8)) { event in
            switch event {
            case .start(let tag):
                let x = tag.value(of: "x").map { String(decoding: $0, as: UTF8.self) } ?? "-"
                seen.append("<\(String(decoding: tag.name, as: UTF8.self)) \(tag.attributeCount) x=\(x) line \(tag.line)>")
                if tag.attributeCount == 1, !tag.attributePrefix(0).isEmpty { seen.append(tag.tag["x:z"] ?? "no x:z") }
            case .end(let name): seen.append("</\(String(decoding: name, as: UTF8.self))>")
            case .text(let text): seen.append(String(decoding: text, as: UTF8.self))
            }
        }
        #expect(seen == ["<font 0 x=- line 1>", "<char 2 x=12 line 1>", "</char>", "text & more", "<y 1 x=- line 1>", "1", "</y>", "</font>"])
    }

    @Test func aDeclaredEncodingIsConverted() throws {
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><font face=\"".utf8) + [0x45, 0xE9] + Array("\"/>".utf8)
        var faces: [String] = []
        try XMLDocumentReader.read(latin1) { if case .start(let tag) = $0 { faces.append(tag["face"] ?? "") } }
        #expect(faces == ["Eé"])
    }

    @Test func whatIsNotWellFormedFailsWithItsLine() throws {
        let broken = #expect(throws: XMLReadError.self) { try events("<a>\n<b>\n</a>") }
        #expect(broken?.line == 3 && broken?.description.hasPrefix("not well-formed XML (line 3): ") == true, "\(String(describing: broken))")
        let notUTF8 = #expect(throws: XMLReadError.self) { try XMLDocumentReader.read(Array("<a x=\"".utf8) + [0xEE, 0x22, 0x2F, 0x3E]) { _ in } }
        #expect(notUTF8?.description.contains("UTF-8") == true, "\(String(describing: notUTF8))")
        #expect(throws: XMLReadError.self) { try events("") }
        #expect(throws: XMLReadError.self) { try events("<a></a><b/>") }
    }

    @Test func entitiesAreRefusedBeforeParsing() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <lolz>&lol2;</lolz>
            """
        let error = #expect(throws: XMLReadError.self) { try events(laughs) }
        #expect(error?.description == "not well-formed XML: it declares entities (<!ENTITY>), which are not read")
        // An external DTD is never fetched: the document reads as if it had none.
        #expect(try events(#"<!DOCTYPE map SYSTEM "http://example.invalid/map.dtd"><map/>"#).count == 2)
    }

    @Test func anErrorTheHandlerThrowsStopsTheReading() throws {
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try XMLDocumentReader.read(Array("<a><b/><c/></a>".utf8)) { event in
                seen += 1
                if case .start(let tag) = event, tag.name == "b" { throw Stop() }
            }
        }
        #expect(seen == 2)
    }
}
