import Preload
import PreloadXML

/// The bitmap font loader plugin: AngelCode BMFont descriptors in all three encodings (text,
/// XML, binary version 3), told apart by their content, into ``BitmapFont``s.
///
/// A font's pages are its dependencies, loaded by whichever image plugin claims them (as an
/// atlas's pages are), so a page two fonts share decodes once and a page that fails fails the
/// font with the page's cause. Every glyph is checked against its page: one reaching outside
/// fails the font, naming the glyph.
///
/// ```swift
/// import Preload
/// import PreloadFont
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
/// ```
public struct BitmapFontLoader: PlanningPlugin {
    /// A bitmap font loader (pages decode with the coordinator's image plugins).
    public init() {}

    public var identifier: String { "bmfont" }
    public var assetKind: AssetKind { .font }
    /// `.fnt`, in any of the three encodings. Phaser's XML fonts (`.xml`) are claimed by content
    /// (a `<font>` root element), or by naming the plugin.
    public var fileExtensions: Set<String> { ["fnt"] }
    public var headerLength: Int { 256 }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        signatureMatch(header) == .matches
    }

    /// BMFont's binary or text form by their first bytes; its XML form when the document's root
    /// element is `<font>` (an SVG that holds a `<font>` in its `<defs>` is not a bitmap font),
    /// read on past a long comment or DOCTYPE, up to ``signatureReach``.
    public func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch {
        if BMFontBinaryFormat.matches(prefix) || BMFontTextFormat.matches(prefix) { return .matches }
        guard BMFontXMLFormat.matches(prefix) else { return .differs }
        guard let root = XMLRootElement.name(in: prefix) else { return .undecided }
        return root == "font" ? .matches : .differs
    }

    /// 64 KiB: an XML file whose root element comes later is claimed by its extension (`.fnt`),
    /// or by naming the plugin.
    public var signatureReach: Int { 64 << 10 }

    /// The font's pages, with the descriptor read to find them handed to the load.
    public func plan(_ request: PlannedRequest) throws -> LoadPlan<BitmapFontDescription> {
        let description = try Self.description(for: request)
        let options = request.options[BitmapFontPages.self].options
        return LoadPlan(dependencies: description.pages.map { AssetRequest(path: $0.path, options: options) }, note: description)
    }

    public func load(_ context: LoadContext) throws -> any Asset {
        let request = context.request
        let description = try context.planningNote(as: BitmapFontDescription.self) ?? Self.description(for: request)
        try context.checkCancellation()
        let options = request.options[BitmapFontPages.self].options
        let pages = try description.pages.map { page in
            FontPage(path: page.path, texture: try context.dependency(AssetRequest(path: page.path, options: options), as: Texture.self))
        }
        if let problem = description.problem(pageSizes: pages.map { ($0.texture.width, $0.texture.height) }, file: request.path) {
            throw problem
        }
        var warnings = description.warnings
        let metrics = description.metrics
        if metrics.pageWidth > 0, metrics.pageHeight > 0,
            let page = pages.first(where: { $0.texture.width != metrics.pageWidth || $0.texture.height != metrics.pageHeight })
        {
            warnings.append(
                AssetWarning(
                    .fontPageSize,
                    "page \(AssetPath.fileName(of: page.path)) is \(page.texture.width)x\(page.texture.height); the font was made for \(metrics.pageWidth)x\(metrics.pageHeight) pages"
                ))
        }
        try context.warn(warnings)
        return BitmapFont(
            format: description.format, metrics: metrics, pages: pages, glyphs: description.glyphs, missingGlyph: description.missingGlyph,
            kerningPairs: description.kerningPairs)
    }

    /// Reads the descriptor at `path` (through `files`: on disk or inside a pack), telling the
    /// encoding from its content, without loading its pages.
    public static func describe(path: String, files: AssetFiles = .local) throws -> BitmapFontDescription {
        let facts = try files.facts(of: path)
        return try description(for: PlannedRequest(request: AssetRequest(path: path), plugin: "bmfont", file: facts, files: files))
    }

    /// The descriptor of `request`, its pages resolved (inside the container of a file inside
    /// one) or replaced by the request's ``BitmapFontPages``.
    static func description(for request: PlannedRequest) throws -> BitmapFontDescription {
        let path = request.path
        let data = try request.files.read(path).array
        let resolve = { (name: String) throws -> String in
            guard let resolved = request.resolvedPath(of: name) else {
                throw BitmapFontError.malformed(file: path, detail: "page '\(name)' lies outside the archive")
            }
            return resolved
        }
        var description: BitmapFontDescription
        let header = Array(data.prefix(256))
        if BMFontBinaryFormat.matches(header) {
            description = try BMFontBinaryFormat.description(data, file: path, resolve: resolve)
        } else if BMFontTextFormat.matches(header) {
            description = try BMFontTextFormat.records(data, file: path).description(format: .text, resolve: resolve)
        } else if BMFontXMLFormat.matches(header) {
            description = try BMFontXMLFormat.records(data, file: path).description(format: .xml, resolve: resolve)
        } else {
            throw BitmapFontError.notAFont(file: path, detail: "neither BMFont's text ('info ...'), XML ('<font>') nor binary ('BMF') form")
        }
        if let files = request.options[BitmapFontPages.self].files {
            guard files.count == description.pages.count else {
                let count = description.pages.count
                let given = "\(files.count) page file\(files.count == 1 ? " was" : "s were") given"
                throw BitmapFontError.malformed(file: path, detail: "the font has \(count) page\(count == 1 ? "" : "s") but \(given)")
            }
            for (index, file) in files.enumerated() { description.pages[index].path = file }
        }
        return description
    }
}
