/// A TMX or TSX element as a ``TiledNode``: values are its attributes, lists its child elements.
struct TMXNode: TiledNode {
    let element: XMLTree.Element
    let file: String
    let place: String

    init(_ element: XMLTree.Element, file: String, place: String = "") {
        self.element = element
        self.file = file
        self.place = place
    }

    func at(_ place: String) -> TMXNode { TMXNode(element, file: file, place: place) }

    private func node(_ element: XMLTree.Element) -> TMXNode { TMXNode(element, file: file, place: place) }

    func string(_ key: String) -> String? { element.attributes[key] }

    func number(_ key: String) throws -> Double? {
        guard let text = element.attributes[key]?.trimmingWhiteSpace, !text.isEmpty else { return nil }
        guard let number = Double(text) else { throw problem("'\(key)' is '\(text)', which is not a number") }
        return number
    }

    func flag(_ key: String) throws -> Bool? {
        switch element.attributes[key]?.trimmingWhiteSpace {
        case nil, "": nil
        case "1", "true": true
        case "0", "false": false
        case let text?: throw problem("'\(key)' is '\(text)', which is neither 1 nor 0")
        }
    }

    func properties() throws -> TiledProperties {
        var properties: TiledProperties = [:]
        for property in element.child(named: "properties")?.children(named: "property") ?? [] {
            let entry = node(property)
            guard let name = entry.string("name") else { throw problem("a property has no name") }
            let type = entry.string("type") ?? "string"
            if type == "class" {
                properties[name] = .class(type: entry.string("propertytype") ?? "", members: try entry.properties())
                continue
            }
            let text = entry.string("value") ?? property.text
            guard let value = TiledProperty.parsing(text, type: type) else {
                throw problem("property '\(name)' is '\(text)', which is not a value of type \(type)")
            }
            properties[name] = value
        }
        return properties
    }

    func list(_ key: String, element name: String) -> [TMXNode] { element.children(named: name).map(node) }

    func child(_ key: String) -> TMXNode? { element.child(named: key).map(node) }

    func animationFrames() -> [TMXNode] { element.child(named: "animation")?.children(named: "frame").map(node) ?? [] }

    func layers() -> [(kind: String, node: TMXNode)] {
        let kinds = ["layer": "tilelayer", "objectgroup": "objectgroup", "imagelayer": "imagelayer", "group": "group"]
        return element.children.compactMap { child in kinds[child.name].map { ($0, node(child)) } }
    }

    func image() throws -> TMXNode? {
        guard let image = element.child(named: "image") else { return nil }
        if image.attributes["source", default: ""].isEmpty {
            if image.child(named: "data") != nil { throw TileMapError.unsupported(file: file, detail: "\(place): an image embedded in the file") }
            return nil
        }
        return node(image)
    }

    func layerData() throws -> (encoding: String, compression: String, data: LayerData?, chunks: [(node: TMXNode, data: LayerData)]) {
        guard let data = element.child(named: "data") else { return ("", "", nil, []) }
        let encoding = data.attributes["encoding"] ?? "", compression = data.attributes["compression"] ?? ""
        func payload(_ element: XMLTree.Element) throws -> LayerData {
            switch encoding {
            case "": return .gids(element.gids)
            case "csv": return .csv(element.text)
            case "base64":
                guard let method = LayerCompression(rawValue: compression) else {
                    throw TileMapError.unsupported(file: file, detail: "\(place): compression '\(compression)'")
                }
                return .base64(element.text, method)
            default: throw TileMapError.unsupported(file: file, detail: "\(place): layer data encoding '\(encoding)'")
            }
        }
        let chunks = data.children(named: "chunk")
        if chunks.isEmpty { return (encoding, compression, try payload(data), []) }
        return (encoding, compression, nil, try chunks.map { (node($0), try payload($0)) })
    }

    func isMarked(_ marker: String) -> Bool { element.child(named: marker) != nil }

    func points(_ key: String) throws -> [SIMD2<Double>]? {
        guard let shape = element.child(named: key) else { return nil }
        return try (shape.attributes["points"] ?? "").split(whereSeparator: \.isWhitespace).map { pair in
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
                throw problem("\(key) point '\(pair)' is not two numbers")
            }
            return SIMD2(x, y)
        }
    }

    func text() -> (node: TMXNode, content: String)? {
        element.child(named: "text").map { (node($0), $0.text) }
    }
}
